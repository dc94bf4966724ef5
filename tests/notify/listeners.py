"""Listeners on loopback that stand where a push service would, for the sender's safety
tests: one that counts who connects, one that answers as told (a redirect, a 201), one
that never finishes its answer (a tarpit), over plain TCP or TLS with a certificate of a
test authority for a public-looking name."""

from __future__ import annotations

import datetime
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

CREATED = b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"


@dataclass
class Request:
    head: bytes
    sni: str | None

    @property
    def line(self) -> str:
        return self.head.split(b"\r\n", 1)[0].decode()

    def header(self, name: str) -> str | None:
        for line in self.head.split(b"\r\n")[1:]:
            key, _, value = line.decode().partition(":")
            if key.strip().lower() == name.lower():
                return value.strip()
        return None


@dataclass
class Listener:
    """Who connected (`connections`, when: `accepted_at`) and what they asked
    (`requests`)."""

    host: str
    port: int
    connections: int = 0
    accepted_at: list[float] = field(default_factory=list)  # time.monotonic() of each
    requests: list[Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"{self.host}:{self.port}"


def _read_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head


@contextmanager
def listener(
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    answer: bytes = CREATED,
    trickle: float | None = None,
    hold: float = 30.0,
    tls: ssl.SSLContext | None = None,
) -> Iterator[Listener]:
    """Listen on `host:port` until the block ends. Each connection is read up to the end
    of its request and answered with `answer`; with `trickle`, the answer never ends: one
    byte of a status line every `trickle` seconds for `hold` seconds."""
    server = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((host, port))
    server.listen(64)
    server.settimeout(0.1)
    found = Listener(host, server.getsockname()[1])
    done = threading.Event()

    def serve(conn: socket.socket) -> None:
        try:
            sni: list[str | None] = [None]
            if tls is not None:
                tls.sni_callback = lambda _sock, name, _ctx: sni.__setitem__(0, name)
                conn = tls.wrap_socket(conn, server_side=True)
            conn.settimeout(hold + 5)
            head = _read_request(conn)
            with found.lock:
                found.requests.append(Request(head, sni[0]))
            if trickle is None:
                conn.sendall(answer)
                return
            end = time.monotonic() + hold
            for byte in (b"HTTP/1.1 201 Created\r\n" * 1000)[: int(hold / trickle)]:
                if done.is_set() or time.monotonic() > end:
                    break
                conn.sendall(bytes([byte]))
                time.sleep(trickle)
        except OSError:
            pass
        finally:
            conn.close()

    def accept() -> None:
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with found.lock:
                found.connections += 1
                found.accepted_at.append(time.monotonic())
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield found
    finally:
        done.set()
        thread.join(5)
        server.close()


@dataclass(frozen=True)
class Authority:
    """A test certificate authority: the client's trust, and a server context per name."""

    directory: Path
    key: ec.EllipticCurvePrivateKey
    certificate: x509.Certificate

    def client(self) -> ssl.SSLContext:
        pem = self.certificate.public_bytes(serialization.Encoding.PEM).decode()
        return ssl.create_default_context(cadata=pem)

    def server(self, name: str) -> ssl.SSLContext:
        """A server context with a certificate for `name`, signed by this authority."""
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
            .issuer_name(self.certificate.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                critical=False,
            )
            .sign(self.key, hashes.SHA256())
        )
        cert_file, key_file = self.directory / f"{name}.crt", self.directory / f"{name}.key"
        cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_file.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert_file, key_file)
        return context


def authority(directory: Path) -> Authority:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Checkers test authority")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return Authority(directory, key, cert)
