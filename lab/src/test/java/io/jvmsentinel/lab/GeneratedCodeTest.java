package io.jvmsentinel.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

class GeneratedCodeTest {

  @Test
  void eachCopyIsANewClassOfTheTemplatesName() {
    GeneratedCode code = DeoptTemplate.generatedCode();
    LongUnaryOperator first = code.newCopy(LongUnaryOperator.class);
    LongUnaryOperator second = code.newCopy(LongUnaryOperator.class);

    assertThat(first.getClass().getName()).isEqualTo(DeoptTemplate.class.getName());
    assertThat(first.getClass()).isNotSameAs(second.getClass()).isNotSameAs(DeoptTemplate.class);
  }

  @Test
  void aRenamedCopyIsTheSameCodeUnderTheNewNameWithItsNestedClasses() throws Exception {
    GeneratedCode renamed =
        DeoptTemplate.generatedCode().renamed("io.jvmsentinel.lab.DeoptSpread07");
    LongUnaryOperator copy = renamed.newCopy(LongUnaryOperator.class);

    assertThat(copy.getClass().getName()).isEqualTo("io.jvmsentinel.lab.DeoptSpread07");
    // The static helpers are the methods JFR names: they moved with the class.
    assertThat(copy.getClass().getDeclaredMethods())
        .extracting(java.lang.reflect.Method::getName)
        .contains("area", "sign", "length", "at");
    // The nested classes were renamed too, so the copy runs both phases on its own classes.
    assertThat(copy.applyAsLong(1)).isPositive();
    Class<?> circle =
        copy.getClass().getClassLoader().loadClass(copy.getClass().getName() + "$Circle");
    assertThat(circle.getClassLoader()).isSameAs(copy.getClass().getClassLoader());
    assertThat(circle.getNestHost()).isSameAs(copy.getClass());
  }

  @Test
  void aRenamedCopyMayHaveANameOfAnotherLength() {
    LongUnaryOperator copy =
        DeoptTemplate.generatedCode()
            .renamed("io.jvmsentinel.lab.spread.Deopt7")
            .newCopy(LongUnaryOperator.class);

    assertThat(copy.getClass().getName()).isEqualTo("io.jvmsentinel.lab.spread.Deopt7");
    assertThat(copy.applyAsLong(0)).isPositive();
  }
}
