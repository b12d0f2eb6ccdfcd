package io.jvmsentinel.daemon.testing;

import io.jvmsentinel.daemon.config.JfrConfig;
import java.time.Duration;

/** JFR settings for tests: the loader builds them from the file, tests change one part. */
public final class JfrConfigs {
  private JfrConfigs() {}

  /** {@code config} with another feed and chunk period. */
  public static JfrConfig withFeed(JfrConfig config, JfrConfig.Feed feed, Duration chunkPeriod) {
    return new JfrConfig(
        config.enabled(),
        config.maxAge(),
        config.maxSizeMb(),
        config.stallTimeout(),
        config.maxLag(),
        config.stackSamplingAboveRate(),
        config.stackSamplingWindow(),
        config.stackSamplingEvery(),
        config.stormPauseAboveRate(),
        config.stormPauseCapture(),
        config.stormPauseProbeEvery(),
        config.simulatedEventCost(),
        feed,
        chunkPeriod);
  }
}
