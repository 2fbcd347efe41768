"""Builds matsamp._C and the matsamp command with the project's CMake (the only
build description) for pip, against the torch of the Python running pip."""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REPO = pathlib.Path(__file__).resolve().parent


def torch_prefix():
    """Where the torch of this Python keeps its CMake package (any torch: Debian's, pip's, ...)."""
    import torch.utils
    return torch.utils.cmake_prefix_path


class CMakeBuild(build_ext):
    """Configures the repository, builds the extension and the command, copies both in place.

    CMake finds torch through torch.utils.cmake_prefix_path; extra CMake arguments
    come from the CMAKE_ARGS environment variable.
    """

    def build_extension(self, ext):
        build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(REPO), "-B", str(build_dir),
                     "-DCMAKE_BUILD_TYPE=Release", "-DMATSAMP_TESTS=OFF",
                     f"-DPython3_EXECUTABLE={sys.executable}", f"-DCMAKE_PREFIX_PATH={torch_prefix()}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        configure += os.environ.get("CMAKE_ARGS", "").split()
        subprocess.run(configure, check=True)
        jobs = str(self.parallel or os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "matsamp_python", "matsamp", "matsamp-full",
                        "-j", jobs], check=True)
        built = list((build_dir / "python" / "matsamp").glob("_C*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one matsamp/_C*.so in {build_dir / 'python'}, got {built}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)
        # The command, run by the console script (matsamp/_command.py), and matsamp-full beside it,
        # which it hands the runs that need libtorch or CUDA.
        commands = target.parent / "bin"
        commands.mkdir(exist_ok=True)
        for name in ("matsamp", "matsamp-full"):
            shutil.copy2(build_dir / "csrc" / name, commands / name)


# setuptools' build trees (and the CMake tree inside them) go under the repository's
# build/, never into the source tree (MATSAMP_PIP_BUILD_DIR moves them elsewhere).
BUILD_BASE = os.environ.get("MATSAMP_PIP_BUILD_DIR", str(REPO / "build" / "pip"))
os.makedirs(BUILD_BASE, exist_ok=True)  # egg_info writes there before anything creates it

setup(
    packages=["matsamp"],
    package_dir={"": "bindings/python"},
    ext_modules=[Extension("matsamp._C", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
)
