"""NumPy's np.array on the nested lists NestedOfTest uses: the shapes, and where a ragged list is
refused ("inhomogeneous shape after N dimensions. The detected shape was ..."). NestedOfTest's
expected values are these printed lines; run with any Python that has NumPy:
    python3 tools/oracle/check_nested_of.py
"""
import numpy as np

SHAPES = {
    "float 2x2": [[1, 2], [3, 4]],
    "float 2x3": [[1, 2, 3], [4, 5, 6]],
    "int 2x2x1": [[[1], [2]], [[3], [4]]],
    "double 1x3": [[0.5, 1.5, 2.5]],
}
RAGGED = {
    "row 1 longer": [[1, 2], [3, 4, 5]],
    "3-D innermost": [[[1, 2], [3]]],
    "3-D middle": [[[1, 2]], [[3, 4], [5, 6]]],
}

for name, data in SHAPES.items():
    print(name, np.array(data).shape)
print("empty rows", np.zeros((2, 0)).shape)
for name, data in RAGGED.items():
    try:
        np.array(data)
        print(name, "accepted")
    except ValueError as e:
        print(name, str(e).split("has an ")[1])
