"""The ``matsamp`` console script of a pip-installed package: runs the matsamp
command built with the package (``matsamp/bin/matsamp``) with the same arguments."""
import os
import sys


def main():
    command = os.path.join(os.path.dirname(__file__), "bin", "matsamp")
    if not os.access(command, os.X_OK):
        sys.exit(f"matsamp: the command was not installed with this package ({command} is missing); "
                 "build it with CMake (README: Building, installing and linking)")
    os.execv(command, [command] + sys.argv[1:])
