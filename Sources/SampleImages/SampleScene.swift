import Processing

/// Generated scenes for the demo, the tests and the benchmarks.
public enum SampleScene {}
