"""Regenerate the gRPC modules from `memoir.proto`: `python -m memoir.grpc.generate`.

The generated modules (`memoir_pb2.py`, `memoir_pb2.pyi`, `memoir_pb2_grpc.py`) are
committed, so that running memoir needs neither protoc nor grpcio-tools (a dev
dependency). `tests/doors/test_grpc.py` regenerates them into a temporary folder and compares
them byte for byte with the committed ones, so an edit of the .proto that was not
regenerated fails there.

protoc runs with `src/` as its include root and the proto named
`memoir/grpc/memoir.proto`: the generated `memoir_pb2_grpc.py` then imports
`from memoir.grpc import memoir_pb2`, which works inside the package (run from this
folder, protoc would write a top-level `import memoir_pb2` that only works on sys.path),
and the descriptor is registered under a name no other package will use.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import grpc_tools
from grpc_tools import protoc

__all__ = ["GENERATED", "PROTO", "generate"]

HERE = Path(__file__).resolve().parent
INCLUDE_ROOT = HERE.parents[1]  # src/: the proto's path below it becomes its import path
PROTO = HERE / "memoir.proto"
GENERATED = ("memoir_pb2.py", "memoir_pb2.pyi", "memoir_pb2_grpc.py")
_WELL_KNOWN = Path(grpc_tools.__file__).resolve().parent / "_proto"  # google/protobuf/*.proto


def generate(target: Path = HERE) -> list[Path]:
    """Run protoc on `memoir.proto` and write the three generated modules into `target`.

    Generates into a scratch folder first: protoc writes below the proto's package
    path (`memoir/grpc/`), and a failed run must not leave half-written modules behind.
    """
    with tempfile.TemporaryDirectory(prefix="memoir-protoc-") as scratch:
        outputs = (f"--{kind}_out={scratch}" for kind in ("python", "pyi", "grpc_python"))
        arguments = ["grpc_tools.protoc", f"-I{INCLUDE_ROOT}", f"-I{_WELL_KNOWN}", *outputs]
        code = protoc.main([*arguments, str(PROTO.relative_to(INCLUDE_ROOT))])
        if code != 0:
            raise RuntimeError(f"protoc failed with exit code {code} on {PROTO} (its message is above)")
        produced = Path(scratch) / PROTO.parent.relative_to(INCLUDE_ROOT)
        target.mkdir(parents=True, exist_ok=True)
        return [Path(shutil.copyfile(produced / name, target / name)) for name in GENERATED]


def main() -> None:
    for path in generate(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
