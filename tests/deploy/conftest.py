"""The README's deployment, started as the README documents it, for tests to play through.

`Deployment` reads the README's production commands (the `sh` block that starts
`companion.serve`) and runs them command for command: `migrate`, `collectstatic`, `check
--deploy`, and every server process, with the environment variables the README exports
(values of the test's own: a fresh PostgreSQL database, a Redis of its own, DEBUG=0, a
random SECRET_KEY, the host `cards.example`). In front, Debian's nginx serves
`deploy/nginx.conf` as it stands, over TLS with a throwaway certificate: only its ports
and the certificate's paths are replaced. The README shows that very file (a test checks
the two are the same), so what is documented and what is tested cannot drift.

Clients reach nginx on 127.0.0.1 under the name cards.example (TLS's server name and the
Host header), each from a loopback address of its own when it must count as another
client (nginx's $remote_addr), since the site's real rate limits apply here.
"""

import datetime
import http.client
import ipaddress
import os
import re
import secrets
import shlex
import shutil
import ssl
import subprocess
import urllib.request
from pathlib import Path

import pytest

from tests.services.conftest import (
    PYTHON,
    ROOT,
    Browser,
    Cluster,
    Process,
    RedisServer,
    Server,
    Worker,
    free_port,
)

README = ROOT / "README.md"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
HOST = "cards.example"
PYTHON_PREFIX = ".venv/bin/python"
WORKER_COMMAND = ["manage.py", "procrastinate", "worker"]  # after the Python prefix
# Set for the tests on top of what the README exports: computer players that answer
# quickly, and quieter logs. Nothing here changes how the site is served.
TEST_ONLY = {"BOT_DELAY": "0.05", "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1"}


def fenced_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.S | re.M)


def production_block() -> str:
    """The README's `sh` block that starts the server processes."""
    blocks = [b for b in fenced_blocks(README.read_text(), "sh") if "companion.serve" in b]
    assert len(blocks) == 1, "the README has one block of production commands"
    return blocks[0]


def production_commands() -> tuple[list[str], list[list[str]]]:
    """(the variables the README exports, its commands as argument lists)."""
    block = re.sub(r"\\\n\s*", " ", production_block())
    exported, commands = [], []
    for line in block.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line.startswith("export "):
            exported += [word.split("=", 1)[0] for word in shlex.split(line)[1:]]
        elif line.startswith(PYTHON_PREFIX):
            commands.append(shlex.split(line.rstrip("&").strip()))
        elif line:
            raise AssertionError(f"a README command the deployment test does not run: {line}")
    return exported, commands


def nginx_site(https_port: int, http_port: int, upstreams: list[int], cert, key) -> str:
    """deploy/nginx.conf with this run's ports and certificate, nothing else changed."""
    text = NGINX_CONF.read_text()
    upstream_lines = re.findall(r"^\s*server 127\.0\.0\.1:\d+;\n", text, re.M)
    assert len(upstream_lines) == len(upstreams), "one upstream line per server process"
    for line, port in zip(upstream_lines, upstreams, strict=True):
        text = text.replace(line, re.sub(r":\d+;", f":{port};", line), 1)
    replacements = {
        "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "/etc/ssl/certs/cards.example.pem": str(cert),
        "/etc/ssl/private/cards.example.key": str(key),
    }
    for old, new in replacements.items():
        assert text.count(old) == 1, f"deploy/nginx.conf has {old!r} once"
        text = text.replace(old, new)
    return text


def throwaway_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for cards.example, valid for a day."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName(HOST), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class Nginx(Process):
    """Debian's nginx in the foreground, serving deploy/nginx.conf from a folder of its own."""

    def __init__(self, log_dir: Path, upstreams: list[int]):
        super().__init__("nginx", log_dir)
        self.http_port = free_port()
        self.folder = Path(log_dir) / "nginx"
        self.folder.mkdir(exist_ok=True)
        cert, key = throwaway_certificate(self.folder)
        self.cert = cert
        site = nginx_site(self.port, self.http_port, upstreams, cert, key)
        (self.folder / "site.conf").write_text(site)
        user = "user root;\n" if os.geteuid() == 0 else ""
        temp = "".join(
            f"    {kind}_temp_path {self.folder / kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\nworker_rlimit_nofile 16384;\n"
            f"pid {self.folder / 'nginx.pid'};\nerror_log {self.folder / 'error.log'} warn;\n"
            "events { worker_connections 8192; }\n"
            f"http {{\n    access_log off;\n{temp}    include {self.folder / 'site.conf'};\n}}\n"
        )

    def command(self):
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        conf = self.folder / "nginx.conf"
        log = self.folder / "error.log"
        return [
            binary,
            "-p",
            str(self.folder),
            "-e",
            str(log),
            "-c",
            str(conf),
            "-g",
            "daemon off;",
        ]

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return (self.folder / "error.log").read_text(errors="replace")[-chars:]
        except OSError:
            return super().log_tail(chars)


class Front:
    """nginx as the clients see it: https://cards.example:<port>, from a loopback address
    (`source`) that nginx sees as the client's; `at(source)` is the same front for
    another client."""

    def __init__(self, nginx: Nginx, source: str | None = None):
        self.nginx, self.port, self.source = nginx, nginx.port, source
        self.base = f"https://{HOST}:{nginx.port}"
        self.context = ssl.create_default_context(cafile=str(nginx.cert))
        self.tls = (self.context, HOST)
        self.name = f"nginx{'@' + source if source else ''}"

    def at(self, source: str) -> "Front":
        return Front(self.nginx, source)

    def browser(self) -> Browser:
        return Browser(self.base, handlers=[_Handler(self.context, self.source)])


class _Connection(http.client.HTTPSConnection):
    """HTTPS to cards.example, reached at 127.0.0.1 from a given loopback address."""

    def connect(self):
        import socket

        source = (self.source, 0) if self.source else None
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout, source)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _Handler(urllib.request.HTTPSHandler):
    def __init__(self, context, source):
        super().__init__(context=context)
        self.source = source

    def https_open(self, request):
        def connection(host, **kwargs):
            conn = _Connection(host, **kwargs)
            conn.source = self.source
            return conn

        return self.do_open(connection, request, context=self._context)


class Deployment(Cluster):
    """The README's deployment: its commands, its processes, nginx in front."""

    def __init__(self, admin_url: str, work: Path):
        super().__init__(admin_url, "", work)
        self.redis = RedisServer("redis", self.work)
        self.secret = secrets.token_urlsafe(50)
        self.nginx: Nginx | None = None
        self.front: Front | None = None
        self.exported, self.commands = production_commands()
        self.serve_commands = [c for c in self.commands if "companion.serve" in c]
        self.worker_commands = [c for c in self.commands if c[1:4] == WORKER_COMMAND]

    def env(self, redis_url: str | None = None) -> dict:
        """The README's variables, with this run's values (and TEST_ONLY)."""
        https = self.nginx.port if self.nginx else 0
        values = {
            "DEBUG": "0",
            "SECRET_KEY": self.secret,
            "DATABASE_URL": self.db_url,
            "REDIS_URL": redis_url or self.redis.url,
            "ALLOWED_HOSTS": HOST,
            "CSRF_TRUSTED_ORIGINS": f"https://{HOST}:{https}",
            "DB_POOL_MAX": "10",
        }
        assert set(values) == set(self.exported), (
            "the deployment test sets the variables the README exports",
            sorted(self.exported),
        )
        return {**values, **TEST_ONLY}

    def process_env(self) -> dict:
        """The machine's environment with the README's variables, and nothing the test
        process set for itself (Django's settings module, the browser tests' async
        override): what a deployer's shell would have."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        return {**env, **self.env()}

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        """manage.py with the deployment's environment (a test's own set-up)."""
        return self.run([PYTHON_PREFIX, "manage.py", *args])

    def run(self, command: list[str], timeout: float = 300) -> subprocess.CompletedProcess:
        assert command[0] == PYTHON_PREFIX
        done = subprocess.run(
            [PYTHON, *command[1:]],
            cwd=ROOT,
            env=self.process_env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode:
            raise RuntimeError(
                f"{shlex.join(command)} failed:\n{done.stdout}\n{done.stderr}"[-4000:]
            )
        return done

    def start(self) -> "Deployment":
        import psycopg

        self.redis.start()
        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.name}"')
        ports = [free_port() for _ in self.serve_commands]
        self.nginx = Nginx(self.work, ports)
        self.front = Front(self.nginx)
        self.outputs = {}
        for command in self.commands:
            if command not in self.serve_commands and command not in self.worker_commands:
                self.outputs[command[2]] = self.run(command)
        for i, (command, port) in enumerate(zip(self.serve_commands, ports, strict=True)):
            self.servers.append(DeployedServer(f"S{i}", self.work, self, command, port).start())
        for i, command in enumerate(self.worker_commands):
            self.workers.append(DeployedWorker(f"W{i}", self.work, self, command).start())
        self.nginx.start()
        return self

    def ensure_running(self) -> None:
        super().ensure_running()
        if not self.nginx.alive:
            self.nginx.start()

    def close(self) -> None:
        for process in (self.nginx, self.redis):
            if process is not None:
                process.stop()
        super().close()

    def browser(self, server) -> Browser:
        if isinstance(server, Front):
            return server.browser()
        return super().browser(server)

    def new_table(self, *args, server=None, **kwargs):
        """A table made through nginx (by default from a loopback address of its own: the
        real limit on new tables per address applies)."""
        return super().new_table(*args, server=server or self.front.at(next_address()), **kwargs)


class DeployedServer(Server):
    """A server process started with the README's own command line (its port replaced)."""

    def __init__(self, name, log_dir, deployment: Deployment, command: list[str], port: int):
        super().__init__(name, log_dir, {}, port=port)
        self.deployment = deployment
        args = list(command[1:])
        at = args.index("--port")
        args[at + 1] = str(port)
        self.args = args

    def command(self):
        return [PYTHON, *self.args]

    def environment(self):
        return self.deployment.process_env()


class DeployedWorker(Worker):
    """A task queue worker started with the README's own command line."""

    def __init__(self, name, log_dir, deployment: Deployment, command: list[str]):
        super().__init__(name, log_dir, {})
        self.deployment, self.args = deployment, list(command[1:])

    def command(self):
        return [PYTHON, *self.args]

    def environment(self):
        return self.deployment.process_env()


_addresses = iter(f"127.0.{a}.{b}" for a in range(1, 250) for b in range(2, 250))


def next_address() -> str:
    """A loopback address no client of this run has used."""
    return next(_addresses)


@pytest.fixture(scope="session")
def _deployment_holder():
    holder = {}
    yield holder
    for deployment in holder.values():
        deployment.close()


@pytest.fixture
def deployment(postgres_url, redis_url, _deployment_holder, tmp_path_factory, settings):
    """The README's deployment, started once for the run; a test that killed a process
    gets it back for the next test. The test signs and reads the phones' cookies with the
    deployment's SECRET_KEY."""
    from tests.conftest import require

    require("nginx", shutil.which("nginx") is not None, "apt-get install nginx-light")
    require("redis-server", shutil.which("redis-server") is not None, "no redis-server")
    running = _deployment_holder.get("deployment")
    if running is None:
        running = Deployment(postgres_url, tmp_path_factory.mktemp("deployment"))
        try:
            running.start()
        except BaseException:
            running.close()
            raise
        _deployment_holder["deployment"] = running
    running.ensure_running()
    settings.SECRET_KEY = running.secret
    yield running
    running.ensure_running()
