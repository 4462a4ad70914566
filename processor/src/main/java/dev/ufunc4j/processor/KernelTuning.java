package dev.ufunc4j.processor;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import dev.ufunc4j.tuning.TuningProfileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What a tuning profile ({@code -Aufunc4j.tuning=<path>}, docs/tuning.md) asks of the generated
 * kernels: per kernel class, the vector size its {@code LANES} is capped at ({@code 0}: none, the
 * preferred size). Read once per compilation; a profile that cannot be used gives one warning and
 * changes nothing, so the output is the untuned one.
 */
final class KernelTuning {
  /** The processor option naming the profile. */
  static final String OPTION = "ufunc4j.tuning";

  static final KernelTuning NONE = new KernelTuning(null);

  private final TuningProfile.Selection selection;

  private KernelTuning(TuningProfile.Selection selection) {
    this.selection = selection;
  }

  /**
   * The profile at {@code path} for the machine javac runs on ({@code vectorBits} is not compared:
   * javac's JVM has no Vector API), or {@link #NONE} after one {@code warn}.
   */
  static KernelTuning read(String path, Fingerprint here, Consumer<String> warn) {
    TuningProfile profile;
    try {
      profile = TuningProfile.read(Path.of(path));
    } catch (TuningProfileException e) {
      warn.accept(
          "ufunc4j: ignoring the tuning profile "
              + (e.otherVersion() ? "of another format version: " : "that cannot be read: ")
              + e.getMessage()
              + "; generating the default kernels");
      return NONE;
    }
    TuningProfile.Selection s = profile.forMachine(here);
    if (s.mismatch() != null) {
      warn.accept(
          "ufunc4j: ignoring the tuning profile "
              + path
              + ": "
              + s.mismatch()
              + "; generating the default kernels (run the tuner on this machine)");
      return NONE;
    }
    return new KernelTuning(s);
  }

  boolean active() {
    return selection != null;
  }

  /**
   * The vector size in bits to cap the class's {@code LANES} at, from the records of its entries'
   * dtypes: the value most of its entries with a record chose (a tie: the larger, nearer the
   * default; the default, a record's first candidate, counts as 0); 0 when none has a record or
   * most chose the preferred size.
   */
  int vectorBitsCap(OpModel op, List<KernelEntry> entries) {
    if (selection == null) {
      return 0;
    }
    String qualified = op.declaringClass().binaryName() + "." + op.name();
    Map<Long, Integer> votes = new TreeMap<>();
    for (KernelEntry e : entries) {
      List<String> dtypes = new ArrayList<>();
      for (DType d : e.operands()) {
        dtypes.add(d.torchName());
      }
      long chosen = selection.choose(qualified, dtypes, "vectorBits", -1);
      if (chosen >= 0) {
        // The tuner lists the default (the preferred size) first: choosing it is no cap.
        boolean isDefault =
            selection.records().stream()
                .filter(
                    r ->
                        r.knob().equals("vectorBits")
                            && r.qualifiedOp().equals(qualified)
                            && r.dtypes().equals(dtypes))
                .anyMatch(r -> r.candidates().get(0).value() == chosen);
        votes.merge(isDefault ? 0 : chosen, 1, Integer::sum);
      }
    }
    long best = 0;
    int most = 0;
    for (Map.Entry<Long, Integer> v : votes.entrySet()) { // ascending: a tie keeps the larger
      if (v.getKey() != 0 && v.getValue() >= most) {
        most = v.getValue();
        best = v.getKey();
      }
    }
    return votes.getOrDefault(0L, 0) >= most ? 0 : (int) best;
  }

  /**
   * Notes for the records that name a class compiled here but an op it does not declare (renamed or
   * removed since the profile was written): they are ignored.
   */
  void noteStaleRecords(String declaringClass, Set<String> opNames, Consumer<String> note) {
    if (selection == null) {
      return;
    }
    Set<String> stale = new TreeSet<>();
    for (TuningProfile.Record r : selection.records()) {
      if (r.declaringClass().equals(declaringClass) && !opNames.contains(r.op())) {
        stale.add(r.op());
      }
    }
    for (String op : stale) {
      note.accept(
          "ufunc4j: the tuning profile's records for op '"
              + op
              + "' are ignored: "
              + declaringClass
              + " declares no such op");
    }
  }
}
