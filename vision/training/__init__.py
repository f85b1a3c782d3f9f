"""Offline training of the reader's two small networks (PyTorch; never imported at run time)."""
