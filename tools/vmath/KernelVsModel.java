import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;

/**
 * The float32 log, sin, cos, sigmoid and tanh kernels against the scalar models ({@code LogModel},
 * {@code TrigModel}, {@code SigmoidModel}, {@code TanhModel}) bit for bit, every step-th bit pattern of all 2^32.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp runtime/target/classes:annotations/target/classes tools/vmath/KernelVsModel.java 61
 * </pre>
 */
public class KernelVsModel {
  public static void main(String[] a) {
    LogModel.Q = new float[] {-0.49999988f, 0.33333325f, -0.250016f, 0.20002091f, -0.16608739f, 0.14179166f, -0.13243131f, 0.12922736f, -0.07644913f};
    TrigModel.SN = new float[TrigModel.S.length];
    for (int i = 0; i < TrigModel.S.length; i++) TrigModel.SN[i] = -TrigModel.S[i];
    long step = Long.parseLong(a[0]);
    int chunk = 1 << 22;
    float[] in = new float[chunk];
    long bits = 0, checked = 0; long[] diff = new long[5];
    boolean[] rr = new boolean[1];
    while (bits < (1L << 32)) {
      int n = 0;
      while (n < chunk && bits < (1L << 32)) { in[n++] = Float.intBitsToFloat((int) bits); bits += step; }
      float[] x = n == chunk ? in : java.util.Arrays.copyOf(in, n);
      Tensor t = Tensor.of(x);
      float[] lg = Ops.log(t).toFloatArray(), sn = Ops.sin(t).toFloatArray(), cs = Ops.cos(t).toFloatArray();
      float[] sg = Ops.sigmoid(t).toFloatArray(), th = Ops.tanh(t).toFloatArray();
      for (int i = 0; i < n; i++) {
        float v = x[i];
        if (v >= Float.MIN_NORMAL && v <= Float.MAX_VALUE && Float.floatToRawIntBits(LogModel.log(v)) != Float.floatToRawIntBits(lg[i])) {
          if (diff[0]++ < 5) System.out.println("log " + v + " " + lg[i] + " " + LogModel.log(v));
        }
        if (Math.abs(v) < 0x1p18f) {
          if (Float.floatToRawIntBits(TrigModel.trig(v, false, rr)) != Float.floatToRawIntBits(sn[i]) && diff[1]++ < 5) System.out.println("sin " + v + " " + sn[i]);
          if (Float.floatToRawIntBits(TrigModel.trig(v, true, rr)) != Float.floatToRawIntBits(cs[i]) && diff[2]++ < 5) System.out.println("cos " + v + " " + cs[i]);
        }
        if (Float.floatToRawIntBits(SigmoidModel.sigmoid(v)) != Float.floatToRawIntBits(sg[i]) && diff[3]++ < 5) System.out.println("sigmoid " + v + " " + sg[i] + " " + SigmoidModel.sigmoid(v));
        if (Float.floatToRawIntBits(TanhModel.tanh(v)) != Float.floatToRawIntBits(th[i]) && diff[4]++ < 5) System.out.println("tanh " + v + " " + th[i] + " " + TanhModel.tanh(v));
        checked++;
      }
    }
    System.out.printf("checked %d inputs: log %d, sin %d, cos %d, sigmoid %d, tanh %d differ from the scalar models%n", checked, diff[0], diff[1], diff[2], diff[3], diff[4]);
  }
}
