package dev.ufunc4j.tuning;

/**
 * A tuning profile that cannot be used: corrupt (the message names the file, the line and what is
 * wrong) or of another format version ({@link #otherVersion}).
 */
public final class TuningProfileException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final boolean otherVersion;

  public TuningProfileException(String message, boolean otherVersion) {
    super(message);
    this.otherVersion = otherVersion;
  }

  /** Whether the file is well formed but of another format version than this ufunc4j reads. */
  public boolean otherVersion() {
    return otherVersion;
  }
}
