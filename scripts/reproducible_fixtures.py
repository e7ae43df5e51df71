"""What the reproducible fixture generators share (scripts/generate-ct-fixtures,
scripts/generate-othername-constraint-certificates, scripts/generate-policy-option-certificates,
scripts/generate-revocation-fixtures):
committed keys, serial numbers derived from names, deterministic signatures, and the `--check` mode
that scripts/check-generated-fixtures runs in CI.

A run over the committed keys writes exactly the committed files: the keys are read (made once,
when absent), serials are a hash of a label, ECDSA signatures are deterministic (RFC 6979, python
`cryptography` 44 or later; CI pins 48.0.0) and RSA signatures PKCS #1 v1.5, and no clock is read.
"""

import hashlib
import pathlib
import shutil
import subprocess
import sys
import tempfile

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

DETERMINISTIC_ECDSA = ec.ECDSA(hashes.SHA256(), deterministic_signing=True)


def p256():
    """A fresh P-256 key (only for a key that is not committed yet)."""
    return ec.generate_private_key(ec.SECP256R1())


def committed_key(path, make=p256):
    """The private key at `path` (PKCS #8 PEM); made with `make` and written there when absent. A
    `--check` run never makes one: a missing key is a difference it reports, not one it writes."""
    path = pathlib.Path(path)
    if path.exists():
        return serialization.load_pem_private_key(path.read_bytes(), None)
    if "--check" in sys.argv[1:]:
        sys.exit(f"{path} is missing: a --check run compares with committed keys and makes none")
    made = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(made.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
    return made


def derived_serial(label):
    """A positive 16-byte serial derived from `label` (top bit clear, next bit set, as
    TestCertificates/): reproducible, and distinct per label."""
    digest = int.from_bytes(hashlib.sha256(b"swifttrust-fixture-serial:" + label.encode()).digest()[:16], "big")
    return (digest >> 2) | (1 << 126)


def sign(builder, key):
    """Signs a certificate builder reproducibly: SHA-256, deterministic ECDSA (RFC 6979)."""
    return builder.sign(key, hashes.SHA256(), ecdsa_deterministic=True)


def run(name, directory, generate, kept=("keys",)):
    """The generators' command line: without arguments, removes everything in `directory` but the
    `kept` entries (the keys, a README) and calls `generate(directory)`; with `--check`, generates
    into a temporary folder and exits 1 when anything but the kept entries differs, is missing or is
    extra. A generator that also writes outside `directory` (scripts/generate-revocation-fixtures: a
    README section) compares that itself when given another folder, reports how it differs and
    returns the paths that do; they fail the check too (the others return None)."""
    directory = pathlib.Path(directory)
    arguments = sys.argv[1:]
    if arguments not in ([], ["--check"]):
        sys.exit(f"usage: scripts/{name} [--check]")
    if arguments == ["--check"]:
        with tempfile.TemporaryDirectory() as scratch:
            elsewhere = generate(pathlib.Path(scratch)) or []
            excluded = [option for entry in kept for option in ("-x", entry)]
            difference = subprocess.run(["diff", "-r", "-q", *excluded, str(directory), scratch],
                                        capture_output=True, text=True)
        if difference.returncode != 0 or elsewhere:
            print(difference.stdout.replace(scratch, "<regenerated>"), end="", file=sys.stderr)
            stale = [str(directory)] * (difference.returncode != 0) + [str(path) for path in elsewhere]
            sys.exit(f"{name}: the committed files in {' and '.join(stale)} differ from what their keys regenerate "
                     f"(run scripts/{name} and commit the result)")
        print(f"{name}: {directory} is what its keys regenerate")
        return
    directory.mkdir(parents=True, exist_ok=True)
    for entry in directory.iterdir():
        if entry.name not in kept:
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    generate(directory)
    print(f"wrote {directory}")
