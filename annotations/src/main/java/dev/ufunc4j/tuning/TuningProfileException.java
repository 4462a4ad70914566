package dev.ufunc4j.tuning;

/**
 * A tuning profile that cannot be used: corrupt (the message names the file, the line and what is
 * wrong) or of another format version ({@link #otherVersion}).
 */
public final class TuningProfileException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Whether the file is of another format version ({@link #otherVersion()}). */
  private final boolean otherVersion;

  /**
   * A refusal of a profile.
   *
   * @param message what is wrong, naming the file and the line
   * @param otherVersion whether the file is well formed but of another format version
   */
  public TuningProfileException(String message, boolean otherVersion) {
    super(message);
    this.otherVersion = otherVersion;
  }

  /**
   * {@return whether the file is well formed but of another format version than this ufunc4j reads}
   */
  public boolean otherVersion() {
    return otherVersion;
  }
}
