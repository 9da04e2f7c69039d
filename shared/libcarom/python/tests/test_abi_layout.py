"""The package's ctypes structures against carom.h as C's compiler lays it out.

carom_abi_layout (built with libcarom from carom.h alone) prints every
struct's size, alignment and fields, every enum value and numeric #define.
Every Structure the package declares must match its struct field by field,
so a changed carom.h cannot be misread silently. CAROM_ABI_LAYOUT names the
program; without it (an installed package, away from a build) the test skips.
"""

import ctypes
import json
import os
import subprocess
import unittest

from carom import _native

# ctypes' types by the C type carom.h writes.
C_TYPES = {
    "char": ctypes.c_char,
    "const char*": ctypes.c_char_p,
    "const uint8_t*": ctypes.POINTER(ctypes.c_uint8),
    "size_t": ctypes.c_size_t,
    "int32_t": ctypes.c_int32,
    "uint8_t": ctypes.c_uint8,
    "uint32_t": ctypes.c_uint32,
    "uint64_t": ctypes.c_uint64,
    "double": ctypes.c_double,
}


def layout():
    program = os.environ.get("CAROM_ABI_LAYOUT")
    if not program:
        raise unittest.SkipTest("CAROM_ABI_LAYOUT is not set")
    return json.loads(subprocess.run([program], check=True, capture_output=True, text=True).stdout)


def structures():
    """Every ctypes Structure the package declares."""
    return [
        v
        for v in vars(_native).values()
        if isinstance(v, type) and issubclass(v, ctypes.Structure) and v is not ctypes.Structure
    ]


def element(ctype):
    """The element type of an array type, else the type itself."""
    return getattr(ctype, "_type_", ctype) if issubclass(ctype, ctypes.Array) else ctype


class AbiLayoutTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.abi = layout()

    def test_every_structure_matches_its_c_struct_field_by_field(self):
        self.assertGreaterEqual(len(structures()), 15)
        for py in structures():
            with self.subTest(structure=py.__name__):
                self.assertTrue(hasattr(py, "c_name"), f"{py.__name__} names no C struct")
                c = self.abi["structs"].get(py.c_name)
                self.assertIsNotNone(c, f"carom.h has no struct {py.c_name}")
                self.assertEqual(
                    [name for name, _ in py._fields_],
                    [f["name"] for f in c["fields"]],
                    f"{py.__name__}'s fields against {py.c_name}'s",
                )
                self.assertEqual(ctypes.sizeof(py), c["size"], f"sizeof({py.c_name})")
                self.assertEqual(ctypes.alignment(py), c["align"], f"alignof({py.c_name})")
                for (name, ctype), f in zip(py._fields_, c["fields"]):
                    where = f"{py.c_name}.{name}"
                    self.assertEqual(getattr(py, name).offset, f["offset"], f"offsetof {where}")
                    self.assertEqual(ctypes.sizeof(ctype), f["size"], f"sizeof {where}")
                    count = ctype._length_ if issubclass(ctype, ctypes.Array) else 1
                    self.assertEqual(count, f["count"], f"elements of {where}")
                    expected = C_TYPES.get(f["type"])
                    self.assertIsNotNone(expected, f"{where}: no ctypes type for {f['type']}")
                    self.assertIs(element(ctype), expected, f"the type of {where}")

    def test_the_constants_the_package_uses_are_carom_hs(self):
        defines = self.abi["defines"]
        self.assertEqual(_native.ABI_VERSION, defines["CAROM_ABI_VERSION"])
        self.assertEqual(_native.OBSERVE_HEAD, defines["CAROM_OBSERVE_HEAD"])
        import carom

        self.assertEqual(carom.TICK_RATE, defines["CAROM_TICK_RATE"])

    def test_the_layout_program_reads_every_struct_of_the_header(self):
        source = os.environ.get("CAROM_SOURCE_DIR")
        if not source:
            self.skipTest("CAROM_SOURCE_DIR is not set")
        with open(os.path.join(source, "shared", "libcarom", "include", "carom.h")) as f:
            header = f.read()
        declared = {line.split()[-1].rstrip(";") for line in header.splitlines()
                    if line.startswith("} carom_") and line.rstrip().endswith(";")}
        self.assertEqual(declared, set(self.abi["structs"]) | {
            name for enum in self.abi["enums"] for name in [enum]})


if __name__ == "__main__":
    unittest.main()
