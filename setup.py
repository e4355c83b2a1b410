"""Build the compiled core: Cython modules over the hand-written C in csrc/."""
from Cython.Build import cythonize
from setuptools import Extension, setup

import platform

COMPILE_ARGS = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function",
                # calls between the C files of one extension do not go through the PLT: only
                # the module's init function (marked so by Python's headers) is exported
                "-fno-semantic-interposition", "-fvisibility=hidden"]
if platform.machine().lower() in ("x86_64", "amd64"):
    COMPILE_ARGS.append("-mpopcnt")   # every x86-64 CPU since 2008; else popcount is a libcall

extensions = [
    Extension(
        "solver._dealgen",
        sources=["solver/_dealgen.pyx", "csrc/dealgen.c"],
        include_dirs=["csrc"],
        extra_compile_args=COMPILE_ARGS,
    ),
    Extension(
        "solver._core",
        sources=["solver/_core.pyx", "csrc/search.c", "csrc/table.c", "csrc/salic.c", "csrc/banner.c"],
        include_dirs=["csrc"],
        extra_compile_args=COMPILE_ARGS,
    ),
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
