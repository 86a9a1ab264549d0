"""Numba kernels: flat numpy arrays and integers in, arrays out.

Nothing here is imported by ``import wargrid``; each capability module imports
its kernels inside the function that needs them, so kernels compile on first
use and are cached on disk.
"""
