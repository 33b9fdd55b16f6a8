# ruff: noqa: E401  (a measurement script, as run)
"""Open a space warm and build its supersede index (read-only): writes the index cache file, as a process that ingests
would. usage: PYTHONPATH=<tree> python index_prime.py <data_dir> <space>"""

import sys, time
from dataclasses import replace
from pathlib import Path
from weaver.embedding import CachedEmbedder, USEEmbedder
from weaver.runtime import Runtime
from weaver.settings import Settings
from weaver.curation import arrival

s = Settings.from_env(env={}, secrets_path=None)
rt = Runtime.from_settings(replace(s, data_dir=Path(sys.argv[1])), embedder=CachedEmbedder(USEEmbedder()))
w = rt.open(sys.argv[2])
print("loaded", w.loaded_from)
t0 = time.perf_counter()
idx = arrival.slot_index(w)
print("index", idx.upto, time.perf_counter() - t0)
