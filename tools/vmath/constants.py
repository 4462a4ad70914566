#!/usr/bin/env python3
"""Split constants of dev.ufunc4j.kernel.VectorMath (Cody-Waite parts), printed as Java literals.

A part with few significant bits times a small integer is exact; the parts add up to the constant
to about three times the format's precision.
"""
import struct
import mpmath as mp

mp.mp.dps = 100


def to_double(x, bits=53):
    """x rounded to `bits` significant bits (a double)."""
    if x == 0:
        return 0.0
    e = mp.floor(mp.log(abs(x), 2))
    scale = mp.mpf(2) ** (bits - 1 - e)
    return float(mp.nint(x * scale) / scale)


def to_float(x, bits=24):
    v = to_double(x, bits)
    return struct.unpack("f", struct.pack("f", v))[0]


def jd(v):
    return repr(v)


def jf(v):
    for digits in range(6, 12):
        s = "%.*g" % (digits, v)
        if struct.unpack("f", struct.pack("f", float(s)))[0] == v:
            return (s if ("e" in s or "." in s) else s + ".0") + "f"


def split(c, parts, bits, conv, name, lit):
    rest = c
    out = []
    for i, b in enumerate(bits):
        p = conv(rest, b)
        out.append(p)
        rest -= mp.mpf(p)
    print("%s: %s   (rest %s)" % (name, ", ".join(lit(p) for p in out), mp.nstr(rest, 3)))


ln2 = mp.log(2)
pio2 = mp.pi / 2
print("double")
split(ln2, 2, [53, 53], to_double, "LN2 (exp, fma)", jd)
split(ln2, 2, [42, 53], to_double, "LN2 (log, k up to 2^11)", jd)
split(pio2, 3, [53, 53, 53], to_double, "PI/2", jd)
print("2/pi", jd(float(2 / mp.pi)), "log2e", jd(float(1 / ln2)), "pi/2", jd(float(pio2)),
      "pi", jd(float(mp.pi)), "pi lo", jd(float(mp.pi - mp.mpf(float(mp.pi)))),
      "pi/2 lo", jd(float(pio2 - mp.mpf(float(pio2)))))
print("1/ln10", jd(float(1 / mp.log(10))), "log10(2)", jd(float(mp.log10(2))))
split(1 / mp.log(10), 2, [53, 53], to_double, "1/ln10", jd)
split(mp.log10(2), 2, [42, 53], to_double, "log10(2) (k up to 2^11)", jd)
print("float")
split(ln2, 2, [24, 24], to_float, "LN2 (exp, fma)", jf)
split(ln2, 2, [15, 24], to_float, "LN2 (log, k up to 2^8)", jf)
split(pio2, 3, [24, 24, 24], to_float, "PI/2", jf)
print("2/pi", jf(to_float(2 / mp.pi)), "log2e", jf(to_float(1 / ln2)), "pi/2", jf(to_float(pio2)),
      "pi", jf(to_float(mp.pi)), "pi lo", jf(to_float(mp.pi - mp.mpf(to_float(mp.pi)))),
      "pi/2 lo", jf(to_float(pio2 - mp.mpf(to_float(pio2)))))
split(1 / mp.log(10), 2, [24, 24], to_float, "1/ln10", jf)
split(mp.log10(2), 2, [15, 24], to_float, "log10(2) (k up to 2^8)", jf)

print("two-word constants")
for name, c in [("2/3", mp.mpf(2) / 3), ("pi/2", pio2), ("pi", mp.pi)]:
    split(c, 2, [24, 24], to_float, name + " float", jf)
    split(c, 2, [53, 53], to_double, name + " double", jd)
# atan's base angles: base, pi/2 - base, pi - base, pi/2 + base for base 0, atan(1/2), pi/4.
bases = [mp.mpf(0), mp.atan(mp.mpf(1) / 2), mp.pi / 4]
for label, conv, bits, lit in [("float", to_float, 24, jf), ("double", to_double, 53, jd)]:
    his, los = [], []
    for combo in range(4):
        row_hi, row_lo = [], []
        for b in bases:
            a = [b, pio2 - b, mp.pi - b, pio2 + b][combo]
            hi = conv(a, bits) if a != 0 else 0.0
            lo = conv(a - mp.mpf(hi), bits) if a - mp.mpf(hi) != 0 else 0.0
            row_hi.append(lit(hi) if hi else "0")
            row_lo.append(lit(lo) if lo else "0")
        his.append("{" + ", ".join(row_hi) + "}")
        los.append("{" + ", ".join(row_lo) + "}")
    print("atan angles", label, "hi:", ", ".join(his))
    print("atan angles", label, "lo:", ", ".join(los))
