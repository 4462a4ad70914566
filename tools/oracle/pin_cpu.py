"""Pins PyTorch's CPU kernels to one instruction set, so that goldens are the same on every host.

Not a generator itself (regenerate.sh runs gen_*.py only). Import it before torch:
PyTorch picks its vectorised kernels (SLEEF's exp, log, tanh, ...; the casts of out-of-range
values) by the CPU it finds at the first call, and the AVX2 and AVX-512 kernels differ in the last
bit of some results. Run on an AVX-512 Xeon and on an AMD EPYC, the same script wrote 14 to 32
golden files that differed by an ulp or two (2026-11-28). AVX2 is the set every machine this project
runs on has, so the goldens are written with it wherever they are generated
(docs/golden-format.md, "Regenerating").
"""
import os

os.environ["ATEN_CPU_CAPABILITY"] = "avx2"
