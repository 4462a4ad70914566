package dev.ufunc4j.processor;

import com.palantir.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * Shared kernels (issue 25 item 6): entries of one op whose kernels are the same code, up to their
 * own names, run one kernel. {@code (bool, int32)} and {@code (uint8, int32)} of {@code add} both
 * load bytes and zero-extend them; {@code add.reduce} of int32 and of uint32 is one fold loop of
 * {@code IntVector} additions, as two's complement adds alike. The later entry (in table order)
 * gets no code at all: its table slot names the first entry's kernel constant ({@code
 * Builtins_add_w32f_int32.INT32_INT32} for uint32 too), and the first one's box method says
 * whose kernel it also is.
 *
 * <p>The fact is derived from the generated code, not declared: two kernels are shared only when
 * their methods print to the same text once each kernel's own name (the prefix of its rows' names)
 * is masked, javadoc and line breaks aside; and when they would share a class anyway (the same lane
 * constants, both folding or not, and for a fold kernel, which has a class of its own, the same
 * tuned vector size). The same text in the same class is the same bytecode, so a shared entry
 * computes the bits its own kernel did, at the speed it did. About a tenth of the runtime's
 * generated lines were such copies (docs/architecture.md, "Why a box").
 */
final class SharedKernels {

  private SharedKernels() {}

  /**
   * {@code kernels} (one op's, in table order) with each kernel whose code an earlier one's
   * already is replaced by a {@link KernelGenerator.Kernel#sharing} of that one; kernels already
   * shared stay so. {@code cap}: the tuned vector size of a class of {@code kernel}'s alone.
   */
  static List<KernelGenerator.Kernel> share(List<KernelGenerator.Kernel> kernels,
      ToIntFunction<KernelGenerator.Kernel> cap) {
    Map<Key, KernelGenerator.Kernel> first = new HashMap<>();
    // By identity: a kernel is a record of its methods, whose equality would print them.
    Map<KernelGenerator.Kernel, List<KernelGenerator.Kernel>> also = new IdentityHashMap<>();
    List<KernelGenerator.Kernel> shared = new ArrayList<>();
    for (KernelGenerator.Kernel k : kernels) {
      KernelGenerator.Kernel source = k.sharedWith() != null ? null
          : first.putIfAbsent(key(k, cap), k);
      if (source == null) {
        shared.add(k);
      } else {
        shared.add(KernelGenerator.Kernel.sharing(k.entry(), source));
        also.computeIfAbsent(source, s -> new ArrayList<>()).add(k);
      }
    }
    if (also.isEmpty()) {
      return kernels;
    }
    // Each source's box method says which entries run it too; the shared ones then point to it.
    Map<KernelGenerator.Kernel, KernelGenerator.Kernel> noted = new IdentityHashMap<>();
    also.forEach((source, others) -> noted.put(source, noted(source, others)));
    return shared.stream().map(k -> k.sharedWith() == null
        ? noted.getOrDefault(k, k)
        : KernelGenerator.Kernel.sharing(k.entry(),
            noted.getOrDefault(k.sharedWith(), k.sharedWith()))).toList();
  }

  /** The kernel whose code {@code k}'s is, or {@code k} itself. */
  static KernelGenerator.Kernel resolve(KernelGenerator.Kernel k) {
    return k.sharedWith() == null ? k : k.sharedWith();
  }

  private record Key(KernelGenerator.LaneConstants lanes, boolean folds, int cap, String code) {}

  private static Key key(KernelGenerator.Kernel k,
      ToIntFunction<KernelGenerator.Kernel> cap) {
    // A row's name is the kernel's name, maybe a suffix, then its argument list; not after a
    // dot: Builtins_gt_w32.float16_float16_contiguous is another op's row (Mirrors.across), which
    // lt's float16_float16 runs and its bfloat16_bfloat16 does not.
    Pattern own = Pattern.compile("(?<![.\\w])" + Pattern.quote(k.name())
        + "(?=(?:_[A-Za-z]+)*\\()");
    StringBuilder code = new StringBuilder();
    for (MethodSpec m : k.methods()) {
      String text = m.toString(); // javadoc first: it names the entry's dtypes
      text = text.startsWith("/**") ? text.substring(text.indexOf("*/\n") + 3) : text;
      // Line breaks are layout (JavaPoet wraps at 100 columns, so a longer name wraps a
      // signature elsewhere); a line break inside a literal would be an escape, not a newline.
      text = text.replaceAll("\\s*\n\\s*", " ");
      code.append(own.matcher(text).replaceAll("\u0000")).append('\n');
    }
    return new Key(k.lanes(), k.folds(), k.folds() ? cap.applyAsInt(k) : 0, code.toString());
  }

  /** {@code source} with a line per entry in {@code others} in its box method's javadoc. */
  private static KernelGenerator.Kernel noted(KernelGenerator.Kernel source,
      List<KernelGenerator.Kernel> others) {
    MethodSpec.Builder box = source.methods().get(0).toBuilder();
    for (KernelGenerator.Kernel o : others) {
      box.addJavadoc("Also the kernel of $L: the same code ({@code SharedKernels}).\n",
          o.entry().describe());
    }
    List<MethodSpec> methods = new ArrayList<>(source.methods());
    methods.set(0, box.build());
    return new KernelGenerator.Kernel(source.entry(), source.name(), source.lanes(), methods,
        source.folds(), null);
  }
}
