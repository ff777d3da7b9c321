"""repolens-tui: local, offline repository intelligence in the terminal."""

from __future__ import annotations

import os

__version__ = "0.1.0"

# The libraries' calls home, switched off for every process of ours. Python runs this file
# before any `app.*` module (the console scripts, `python -m app.cli`, `import app.service`),
# so before fastembed can import onnxruntime, which reads ORT_DISABLE_TELEMETRY when it loads
# (`onnxruntime.disable_telemetry_events()` afterwards does not stop its lookup of
# mobile.events.data.microsoft.com). A value the user set is kept. HF_HUB_OFFLINE stays unset:
# the default models never download, and a fastembed model chosen by name must, once.
OFFLINE_ENVIRONMENT = {
    "ORT_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
}


def _keep_libraries_offline() -> None:
    for name, value in OFFLINE_ENVIRONMENT.items():
        os.environ.setdefault(name, value)


_keep_libraries_offline()
