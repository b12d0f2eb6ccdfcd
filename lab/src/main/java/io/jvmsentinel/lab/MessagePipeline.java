package io.jvmsentinel.lab;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * A message-processing service's pipeline: every message passes {@value #STAGES} stages, each a
 * class of its own ({@link StageTemplate} copies), so each stage's compiled code speculates on the
 * message types it has seen.
 */
final class MessagePipeline {

  static final int STAGES = 200;
  // Internal form: the name goes into the class file as it is.
  private static final String PREFIX = "io/jvmsentinel/lab/pipeline/Stage";

  @SuppressWarnings("unchecked")
  private final List<ToLongFunction<LongSupplier>> stages =
      (List<ToLongFunction<LongSupplier>>)
          (List<?>)
              RenamedClass.newInstances(StageTemplate.class, PREFIX, STAGES, ToLongFunction.class);

  long process(LongSupplier message) {
    long sum = 0;
    for (ToLongFunction<LongSupplier> stage : stages) {
      sum += stage.applyAsLong(message);
    }
    return sum;
  }
}
