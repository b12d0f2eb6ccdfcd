package io.jvmsentinel.lab;

import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * One stage of {@link MessagePipeline} (a validator, an enricher, a mapper): reads its message
 * twice through {@link LongSupplier}, a call the JIT inlines for the one message type it has seen
 * and guards with a type check. Copies are classes of their own, each compiled with its own
 * profile. Public only because copies live in their own runtime package; not an API.
 */
public final class StageTemplate implements ToLongFunction<LongSupplier> {

  private long state = 31;

  @Override
  public long applyAsLong(LongSupplier message) {
    long x = state ^ message.getAsLong();
    x = (x ^ (x >>> 29)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 32)) * 0x94D049BB133111EBL;
    x += message.getAsLong() * 31 + (x >>> 17);
    state = x;
    return x;
  }
}
