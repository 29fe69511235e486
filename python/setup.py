"""Installs the package with the libnmt.so built in the repository (`make
libnmt.so` first): it is copied into the package, so the installed binding
needs nothing else."""
import os
import shutil

from setuptools import setup

here = os.path.dirname(os.path.abspath(__file__))
built = os.path.join(here, '..', 'libnmt.so')
target = os.path.join(here, 'nmt', 'libnmt.so')
if os.path.exists(built):
    shutil.copyfile(built, target)
elif not os.path.exists(target):
    raise SystemExit('libnmt.so not found: run `make libnmt.so` in the repository first')
setup()
