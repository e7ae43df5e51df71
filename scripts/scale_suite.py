"""Writes an x509-limbo (version 1 schema) suite of N fresh chains for the throughput benchmarks.

Every case has its own root, intermediate and leaf (ECDSA P-256, SHA-256): nothing is shared
between cases, so no cache of a verifier can carry work from one case to the next. Most cases are
valid TLS server chains; one in eight is wrong in one way (host name, expired leaf, missing
intermediate, leaf not for serverAuth, intermediate not a CA, leaf signed by a stranger), so that
the failure paths are timed too. Deterministic for a given seed (serials and choices; keys are
random, so the bytes differ from run to run, the cases do not).

Usage: python scale_suite.py OUT.json [--cases N] [--seed S]
"""

import argparse
import datetime
import json
import random

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

VALIDATION_TIME = datetime.datetime(2026, 6, 1, tzinfo=datetime.timezone.utc)
NOT_BEFORE = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2027, 1, 1, tzinfo=datetime.timezone.utc)
DEFECTS = ["wrong-host", "expired-leaf", "missing-intermediate", "client-only-leaf", "intermediate-not-ca", "stranger-signed"]


def name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "SwiftTrust scale suite"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def certificate(subject, issuer, key, signer, serial, ca, host=None, not_after=NOT_AFTER, server=True, path_length=None):
    """A leaf when `host` is given, else an issuing certificate (whose basicConstraints cA is `ca`)."""
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
               .serial_number(serial).not_valid_before(NOT_BEFORE).not_valid_after(not_after)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=path_length), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(signer.public_key()), critical=False))
    if host is None:
        builder = builder.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    else:
        builder = (builder
                   .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
                   .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH]),
                                  critical=False)
                   .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False))
    return builder.sign(signer, hashes.SHA256())


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def case(index, rng):
    defect = DEFECTS[index // 8 % len(DEFECTS)] if index % 8 == 7 else None
    host = f"host{index}.scale.swifttrust.test"
    root_key, intermediate_key, leaf_key = (ec.generate_private_key(ec.SECP256R1()) for _ in range(3))
    root_name, intermediate_name = name(f"Scale Root {index}"), name(f"Scale Intermediate {index}")
    root = certificate(root_name, root_name, root_key, root_key, rng.getrandbits(64) | 1, ca=True)
    intermediate_is_ca = defect != "intermediate-not-ca"
    intermediate = certificate(intermediate_name, root_name, intermediate_key, root_key, rng.getrandbits(64) | 1,
                               ca=intermediate_is_ca, path_length=0 if intermediate_is_ca else None)
    signer = ec.generate_private_key(ec.SECP256R1()) if defect == "stranger-signed" else intermediate_key
    leaf = certificate(name(host), intermediate_name, leaf_key, signer, rng.getrandbits(64) | 1, ca=False, host=host,
                       not_after=datetime.datetime(2026, 5, 1, tzinfo=datetime.timezone.utc) if defect == "expired-leaf" else NOT_AFTER,
                       server=defect != "client-only-leaf")
    return {
        "id": f"scale::{index:05d}" + (f"-{defect}" if defect else ""),
        "features": [],
        "description": "fresh ECDSA P-256 root, intermediate and leaf" + (f"; defect: {defect}" if defect else ""),
        "validation_kind": "SERVER",
        "trusted_certs": [pem(root)],
        "untrusted_intermediates": [] if defect == "missing-intermediate" else [pem(intermediate)],
        "peer_certificate": pem(leaf),
        "validation_time": VALIDATION_TIME.isoformat().replace("+00:00", "Z"),
        "signature_algorithms": [],
        "key_usage": [],
        "extended_key_usage": ["serverAuth"],
        "expected_result": "FAILURE" if defect else "SUCCESS",
        "expected_peer_name": {"kind": "DNS", "value": "elsewhere.scale.swifttrust.test" if defect == "wrong-host" else host},
        "max_chain_depth": None,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    suite = {"version": 1, "testcases": [case(index, rng) for index in range(arguments.cases)]}
    with open(arguments.output, "w") as out:
        json.dump(suite, out)


if __name__ == "__main__":
    main()
