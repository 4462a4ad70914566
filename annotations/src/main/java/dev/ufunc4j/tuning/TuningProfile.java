package dev.ufunc4j.tuning;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A tuning profile (docs/tuning.md): JSON lines, one header, one line per machine, one line per
 * measured record. The tuner writes it; the processor ({@code -Aufunc4j.tuning=<path>}) and the
 * runtime ({@code -Dufunc4j.tuning=<path>}, or {@code META-INF/ufunc4j/tuning.jsonl} on the class
 * path) read it.
 *
 * <p>{@link #parse} refuses a corrupt file ({@link TuningProfileException}, naming the line and
 * what is wrong) and tells an older or newer format apart ({@link
 * TuningProfileException#otherVersion}); {@link #forMachine} keeps the records measured on a given
 * machine, or says how the machines differ.
 */
public final class TuningProfile {
  /** The header's {@code format}. */
  public static final String FORMAT = "ufunc4j-tuning";

  /** The format version this build reads and writes. */
  public static final int VERSION = 1;

  /** The knobs a record may tune; {@link #BUILD_KNOBS} the processor's, the rest the runtime's. */
  public static final Set<String> KNOBS = Set.of("vectorBits", "grain", "threads");

  /** The knobs the processor applies when it generates kernels. */
  public static final Set<String> BUILD_KNOBS = Set.of("vectorBits");

  /**
   * One candidate's timing: median, fastest and slowest sample, in nanoseconds per call.
   *
   * @param value the knob's value
   * @param medianNs the median sample, in nanoseconds per call
   * @param minNs the fastest sample, in nanoseconds per call
   * @param maxNs the slowest sample, in nanoseconds per call
   * @param samples how many samples were taken
   */
  public record Timing(long value, double medianNs, double minNs, double maxNs, int samples) {
    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("value", value);
      m.put("median_ns", round(medianNs));
      m.put("min_ns", round(minNs));
      m.put("max_ns", round(maxNs));
      m.put("samples", samples);
      return m;
    }

    private static double round(double ns) {
      return Math.round(ns * 10) / 10.0;
    }
  }

  /**
   * One measurement: the op ({@code op} of the class {@code declaringClass}; {@code "*"} and {@code
   * "*"} for a runtime-wide knob), its operand dtypes, the shape class, the machine, the knob, the
   * chosen value and every candidate's timing (the default among them).
   *
   * @param op the op's name ({@code "*"} for a runtime-wide knob)
   * @param declaringClass the class declaring the op ({@code "*"} for a runtime-wide knob)
   * @param dtypes the operand dtypes, by name
   * @param shape the shape class the timings were taken on
   * @param machine the {@link Fingerprint#id} of the machine
   * @param knob the knob tuned ({@code vectorBits}, {@code grain}, {@code threads})
   * @param chosen the value chosen
   * @param candidates every candidate's timing, the default first
   */
  public record Record(
      String op,
      String declaringClass,
      List<String> dtypes,
      String shape,
      String machine,
      String knob,
      long chosen,
      List<Timing> candidates) {
    /** Copies the lists, so that the record cannot change after. */
    public Record {
      dtypes = List.copyOf(dtypes);
      candidates = List.copyOf(candidates);
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("op", op);
      m.put("class", declaringClass);
      m.put("dtypes", dtypes);
      m.put("shape", shape);
      m.put("machine", machine);
      m.put("knob", knob);
      m.put("chosen", chosen);
      List<Object> c = new ArrayList<>();
      for (Timing t : candidates) {
        c.add(t.toJson());
      }
      m.put("candidates", c);
      return m;
    }

    /**
     * {@code op} of {@code declaringClass}, the name the processor and the runtime match.
     *
     * @return {@code declaringClass + "." + op}
     */
    public String qualifiedOp() {
      return declaringClass + "." + op;
    }
  }

  private final List<Fingerprint> machines;
  private final List<Record> records;

  /**
   * A profile of {@code records} measured on {@code machines} (both copied).
   *
   * @param machines the machines the records name, by {@link Fingerprint#id}
   * @param records the measurements
   */
  public TuningProfile(List<Fingerprint> machines, List<Record> records) {
    this.machines = List.copyOf(machines);
    this.records = List.copyOf(records);
  }

  /** {@return the machines the records were measured on} */
  public List<Fingerprint> machines() {
    return machines;
  }

  /** {@return every measurement, in the file's order} */
  public List<Record> records() {
    return records;
  }

  /**
   * The most bytes a profile may have: 4 MiB. A record is about half a KiB and the tuner's full
   * mode writes six per op and dtypes, so every built-in op over all 18 dtypes comes to about 2
   * MiB; a larger file is not a profile. Reading no more than this keeps a wrong path (a huge file,
   * a device that never ends) from exhausting the heap.
   */
  public static final int MAX_BYTES = 4 << 20;

  /**
   * Reads and {@linkplain #parse parses} {@code file}; its name is the errors' source. Only a
   * regular file (a symbolic link is followed) of at most {@link #MAX_BYTES} is read: a directory,
   * FIFO, device or socket is refused without being opened (opening a FIFO would wait for a
   * writer), and so is a larger file.
   *
   * @param file the profile's path
   * @return the profile
   */
  public static TuningProfile read(Path file) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (IOException | RuntimeException e) {
      throw new TuningProfileException(file + ": cannot read the tuning profile: " + e, false);
    }
    if (!attributes.isRegularFile()) {
      throw new TuningProfileException(
          file
              + ": not a regular file ("
              + (attributes.isDirectory() ? "a directory" : "a FIFO, device or socket")
              + "); a tuning profile is read only from a regular file",
          false);
    }
    checkSize(file.toString(), attributes.size());
    try (InputStream in = Files.newInputStream(file)) {
      return parse(file.toString(), readLines(file.toString(), in));
    } catch (IOException e) {
      throw new TuningProfileException(file + ": cannot read the tuning profile: " + e, false);
    }
  }

  /**
   * {@return the lines of the profile {@code in} holds ({@code source} names it in errors): at most
   * {@link #MAX_BYTES} bytes are read, and a stream that has more, or bytes that are not UTF-8, is
   * refused ({@link TuningProfileException})} Lines end at {@code \n}, {@code \r} or {@code \r\n}.
   *
   * @param source the name to give in error messages (a path or URL)
   * @param in the profile's bytes
   * @throws IOException when the stream cannot be read
   */
  public static List<String> readLines(String source, InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(MAX_BYTES + 1);
    checkSize(source, bytes.length);
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString()
          .lines().toList();
    } catch (CharacterCodingException e) {
      throw new TuningProfileException(source + ": cannot read the tuning profile: " + e, false);
    }
  }

  private static void checkSize(String source, long bytes) {
    if (bytes > MAX_BYTES) {
      throw new TuningProfileException(
          source
              + ": "
              + (bytes > MAX_BYTES + 1 ? bytes + " bytes" : "more than " + MAX_BYTES + " bytes")
              + ", larger than a tuning profile may be ("
              + MAX_BYTES
              + " bytes)",
          false);
    }
  }

  /**
   * {@return the profile in {@code lines} ({@code source} names it in errors)} Blank lines are
   * skipped; the first line must be the header, every other line a machine or a record whose
   * machine is listed above it.
   *
   * @param source the name to give in error messages (a path or URL)
   * @param lines the profile's lines
   */
  public static TuningProfile parse(String source, List<String> lines) {
    List<Fingerprint> machines = new ArrayList<>();
    Map<String, Fingerprint> byId = new LinkedHashMap<>();
    List<Record> records = new ArrayList<>();
    boolean header = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String where = source + ":" + (i + 1) + ": ";
      Map<String, Object> obj;
      try {
        Object v = Json.parse(line);
        if (!(v instanceof Map<?, ?> m)) {
          throw new IllegalArgumentException("a line must be a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> typed = (Map<String, Object>) m;
        obj = typed;
      } catch (IllegalArgumentException e) {
        throw new TuningProfileException(where + "not JSON: " + e.getMessage(), false);
      }
      try {
        if (!header) {
          readHeader(source, obj);
          header = true;
        } else if (obj.containsKey("machine") && !obj.containsKey("knob")) {
          Fingerprint f = readMachine(obj);
          if (byId.putIfAbsent(f.id(), f) == null) {
            machines.add(f);
          }
        } else {
          Record r = readRecord(obj);
          if (!byId.containsKey(r.machine())) {
            throw new IllegalArgumentException(
                "machine '" + r.machine() + "' is not listed on a line above");
          }
          records.add(r);
        }
      } catch (TuningProfileException e) {
        throw e;
      } catch (IllegalArgumentException e) {
        throw new TuningProfileException(where + e.getMessage(), false);
      }
    }
    if (!header) {
      throw new TuningProfileException(source + ": empty: no header line", false);
    }
    return new TuningProfile(machines, records);
  }

  private static void readHeader(String source, Map<String, Object> obj) {
    Object format = obj.get("format");
    if (!FORMAT.equals(format)) {
      throw new IllegalArgumentException(
          "the first line must be the header {\"format\":\""
              + FORMAT
              + "\",\"version\":"
              + VERSION
              + "}, found format "
              + (format == null ? "missing" : "'" + format + "'"));
    }
    long version = integer(obj, "version");
    if (version != VERSION) {
      throw new TuningProfileException(
          source
              + ": format version "
              + version
              + (version < VERSION ? " is older than" : " is newer than")
              + " version "
              + VERSION
              + ", the one this ufunc4j reads; run the tuner again",
          true);
    }
    checkKeys(obj, Set.of("format", "version"), "header");
  }

  private static Fingerprint readMachine(Map<String, Object> obj) {
    checkKeys(
        obj,
        Set.of("machine", "cpu", "flags", "cores", "vectorBits", "jdk", "ufunc4j"),
        "machine line");
    Fingerprint f =
        new Fingerprint(
            string(obj, "cpu"),
            string(obj, "flags"),
            (int) integer(obj, "cores"),
            (int) integer(obj, "vectorBits"),
            string(obj, "jdk"),
            string(obj, "ufunc4j"));
    String id = string(obj, "machine");
    if (!id.equals(f.id())) {
      throw new IllegalArgumentException(
          "machine id '"
              + id
              + "' is not the hash of its fields ('"
              + f.id()
              + "'): edited by hand?");
    }
    return f;
  }

  private static Record readRecord(Map<String, Object> obj) {
    checkKeys(
        obj,
        Set.of("op", "class", "dtypes", "shape", "machine", "knob", "chosen", "candidates"),
        "record");
    String knob = string(obj, "knob");
    if (!KNOBS.contains(knob)) {
      throw new IllegalArgumentException(
          "unknown knob '" + knob + "'; known: " + new java.util.TreeSet<>(KNOBS));
    }
    List<String> dtypes = new ArrayList<>();
    for (Object d : list(obj, "dtypes")) {
      if (!(d instanceof String s)) {
        throw new IllegalArgumentException("dtypes must be strings, found " + d);
      }
      dtypes.add(s);
    }
    List<Timing> candidates = new ArrayList<>();
    for (Object c : list(obj, "candidates")) {
      if (!(c instanceof Map<?, ?> m)) {
        throw new IllegalArgumentException("a candidate must be an object, found " + c);
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> cm = (Map<String, Object>) m;
      checkKeys(cm, Set.of("value", "median_ns", "min_ns", "max_ns", "samples"), "candidate");
      Timing t =
          new Timing(
              integer(cm, "value"),
              number(cm, "median_ns"),
              number(cm, "min_ns"),
              number(cm, "max_ns"),
              (int) integer(cm, "samples"));
      if (!(t.minNs() <= t.medianNs() && t.medianNs() <= t.maxNs()) || t.samples() < 1) {
        throw new IllegalArgumentException(
            "candidate " + t.value() + ": needs min_ns <= median_ns <= max_ns and samples >= 1");
      }
      candidates.add(t);
    }
    long chosen = integer(obj, "chosen");
    if (candidates.stream().noneMatch(t -> t.value() == chosen)) {
      throw new IllegalArgumentException(
          "chosen " + knob + " " + chosen + " is none of the candidates");
    }
    return new Record(
        string(obj, "op"),
        string(obj, "class"),
        dtypes,
        string(obj, "shape"),
        string(obj, "machine"),
        knob,
        chosen,
        candidates);
  }

  private static void checkKeys(Map<String, Object> obj, Set<String> expected, String what) {
    for (String k : expected) {
      if (!obj.containsKey(k)) {
        throw new IllegalArgumentException(what + " lacks \"" + k + "\"");
      }
    }
    for (String k : obj.keySet()) {
      if (!expected.contains(k)) {
        throw new IllegalArgumentException(what + " has an unknown key \"" + k + "\"");
      }
    }
  }

  private static String string(Map<String, Object> obj, String key) {
    if (!(obj.get(key) instanceof String s)) {
      throw new IllegalArgumentException("\"" + key + "\" must be a string, found " + obj.get(key));
    }
    return s;
  }

  private static long integer(Map<String, Object> obj, String key) {
    if (!(obj.get(key) instanceof Long l)) {
      throw new IllegalArgumentException(
          "\"" + key + "\" must be an integer, found " + obj.get(key));
    }
    return l;
  }

  private static double number(Map<String, Object> obj, String key) {
    if (!(obj.get(key) instanceof Number n)) {
      throw new IllegalArgumentException("\"" + key + "\" must be a number, found " + obj.get(key));
    }
    return n.doubleValue();
  }

  private static List<?> list(Map<String, Object> obj, String key) {
    if (!(obj.get(key) instanceof List<?> l)) {
      throw new IllegalArgumentException("\"" + key + "\" must be an array, found " + obj.get(key));
    }
    return l;
  }

  /** {@return the profile as lines: header, machines, records sorted by their key} */
  public List<String> toLines() {
    List<String> out = new ArrayList<>();
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("format", FORMAT);
    h.put("version", VERSION);
    out.add(Json.write(h));
    TreeMap<String, Fingerprint> sortedMachines = new TreeMap<>();
    for (Fingerprint f : machines) {
      sortedMachines.put(f.id(), f);
    }
    for (Fingerprint f : sortedMachines.values()) {
      out.add(Json.write(f.toJson()));
    }
    List<Record> sorted = new ArrayList<>(records);
    sorted.sort((a, b) -> key(a).compareTo(key(b)));
    for (Record r : sorted) {
      out.add(Json.write(r.toJson()));
    }
    return out;
  }

  private static String key(Record r) {
    return String.join(
        "\u0000",
        r.declaringClass(),
        r.op(),
        String.join(",", r.dtypes()),
        r.shape(),
        r.knob(),
        r.machine());
  }

  /**
   * Writes {@link #toLines} to {@code file}.
   *
   * @param file the path to write
   * @throws IOException when the file cannot be written
   */
  public void write(Path file) throws IOException {
    Files.write(file, toLines(), StandardCharsets.UTF_8);
  }

  /**
   * {@return what applies to {@code here}: the records of the recorded machine that matches it, or
   * none and a {@code mismatch} text naming how each recorded machine differs}
   *
   * @param here this machine
   */
  public Selection forMachine(Fingerprint here) {
    List<String> why = new ArrayList<>();
    for (Fingerprint f : machines) {
      List<String> d = here.differencesFrom(f);
      if (d.isEmpty()) {
        List<Record> mine = new ArrayList<>();
        for (Record r : records) {
          if (r.machine().equals(f.id())) {
            mine.add(r);
          }
        }
        return new Selection(mine, null);
      }
      why.add("machine " + f.id() + " (" + String.join("; ", d) + ")");
    }
    return new Selection(
        List.of(),
        machines.isEmpty()
            ? "it lists no machine"
            : "it was recorded on another machine: " + String.join(", ", why));
  }

  /**
   * The records for one machine, or why there are none ({@code mismatch}, else null).
   *
   * @param records the records measured on this machine
   * @param mismatch why the profile's machines differ from this one; null when they match
   */
  public record Selection(List<Record> records, String mismatch) {
    /** Copies {@code records}, so that the selection cannot change after. */
    public Selection {
      records = Collections.unmodifiableList(new ArrayList<>(records));
    }

    /**
     * {@return the value to use for {@code knob} of op {@code qualifiedOp} (a declaring class and
     * op name; {@code "*.*"} for runtime-wide knobs) over {@code dtypes}, or {@code fallback} when
     * no record covers it: the value most of its shape classes' records chose; a tie keeps the
     * default (the records' first candidate, as the tuner writes them) if it is among the tied,
     * else the tied value of the first record} Each record's {@code chosen} decides, so a
     * hand-edited choice is followed.
     *
     * @param qualifiedOp the declaring class and op name ({@code "*.*"} for runtime-wide knobs)
     * @param dtypes the operand dtypes, by name
     * @param knob the knob
     * @param fallback the value when no record covers it
     */
    public long choose(String qualifiedOp, List<String> dtypes, String knob, long fallback) {
      List<Record> rs = new ArrayList<>();
      for (Record r : records) {
        if (r.knob().equals(knob)
            && r.qualifiedOp().equals(qualifiedOp)
            && r.dtypes().equals(dtypes)) {
          rs.add(r);
        }
      }
      if (rs.isEmpty()) {
        return fallback;
      }
      Map<Long, Integer> votes = new LinkedHashMap<>();
      for (Record r : rs) {
        votes.merge(r.chosen(), 1, Integer::sum);
      }
      int most = Collections.max(votes.values());
      long def = rs.get(0).candidates().get(0).value();
      if (votes.getOrDefault(def, 0) == most) {
        return def;
      }
      for (Record r : rs) {
        if (votes.get(r.chosen()) == most) {
          return r.chosen();
        }
      }
      throw new AssertionError("a most-voted value");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TuningProfile p && p.machines.equals(machines) && p.records.equals(records);
  }

  @Override
  public int hashCode() {
    return Objects.hash(machines, records);
  }
}
