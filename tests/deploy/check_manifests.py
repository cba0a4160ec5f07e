#!/usr/bin/python3
"""Checks Vertex's deployment files without Docker or Kubernetes.

  check_manifests.py SOURCE_DIR
      Loads docker-compose.yml and every YAML file under deploy/k8s/ with
      yaml.safe_load_all (no schema) and checks their structure and how they
      fit together: object names and kinds, the binaries containers run, the
      flags and VERTEX_* variables passed to them, Service ports against
      container ports and selectors against pod labels, probes, volumes,
      resources, security contexts, grace periods. Also the CMD, USER and
      EXPOSE of deploy/Dockerfile.

  check_manifests.py SOURCE_DIR --flags-accepted BUILD_DIR
      Runs each binary the deployment files start (found as
      BUILD_DIR/services/*/<binary>) with --help, and `vertexctl COMMAND --help`
      for each vertexctl command they use, and checks that every flag passed to
      it appears in that help. Exits 77 (skipped) when a binary is not built.

Prints one line per check; on failure, a FAIL line naming the file, the object
and what is wrong, and exits 1.
"""

import glob
import json
import os
import re
import shlex
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("FAIL: python3-yaml is not installed (apt-get install python3-yaml)")
    sys.exit(1)

# The binaries of the image and the flags each accepts (every flag can also be
# given as the environment variable VERTEX_<NAME>, '-' -> '_').
COMMON_SERVER_FLAGS = {
    "listen", "port-file", "tls-cert", "tls-key", "tls-ca", "auth-token",
    "auth-token-file", "log-format", "log-level", "max-message-bytes", "max-memory-bytes", "max-threads",
    "drain-seconds",
}
SECONDARY_FLAGS = {"store", "secondary-dir", "learning-server", "catch-up-ms", "max-lag-ms"}
EXTRACTION_FLAGS = {"max-concurrent-extractions"}
SERVER_FLAGS = {
    "vertexd": COMMON_SERVER_FLAGS | {"store"} | EXTRACTION_FLAGS,
    "vertex-learning": COMMON_SERVER_FLAGS | {"store"},
    "vertex-extraction": COMMON_SERVER_FLAGS | SECONDARY_FLAGS | EXTRACTION_FLAGS,
    "vertex-monitoring": COMMON_SERVER_FLAGS | SECONDARY_FLAGS,
}
VERTEXCTL_FLAGS = {  # per command
    "health": {"server", "service"},
    "monitor": {"server"},
    "help": set(),
}
# Variables vertexctl reads besides its flags (the bearer token for write RPCs).
VERTEXCTL_ENV = {"VERTEX_AUTH_TOKEN"}
BINARIES = set(SERVER_FLAGS) | {"vertexctl"}
SHELLS = {"sh", "/bin/sh", "bash", "/bin/bash"}
POD_KINDS = {"Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"}
SHELL_OPERATORS = {";", "&&", "||", "|", "&", "(", ")", ";;"}


class Checker:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def ok(self, cond, what, where=""):
        prefix = f"{where}: " if where else ""
        if cond:
            self.passed += 1
            print(f"ok: {prefix}{what}")
        else:
            self.failures.append(f"{prefix}{what}")
            print(f"FAIL: {prefix}{what}")
        return cond

    def fail(self, what, where=""):
        return self.ok(False, what, where)


class Invocation:
    """One run of a Vertex binary: its flags as (name, value) pairs."""

    def __init__(self, binary, args, where):
        self.binary = binary
        self.where = where
        self.command = None  # vertexctl's command
        self.flags = []
        self.positional = []
        i = 0
        if binary == "vertexctl" and args and not args[0].startswith("-"):
            self.command = args[0]
            i = 1
        while i < len(args):
            a = args[i]
            if a.startswith("--") and len(a) > 2:
                if "=" in a:
                    name, value = a[2:].split("=", 1)
                else:
                    name = a[2:]
                    value = None
                    if i + 1 < len(args) and not args[i + 1].startswith("--"):
                        value = args[i + 1]
                        i += 1
                self.flags.append((name, value))
            else:
                self.positional.append(a)
            i += 1

    def flag(self, name):
        for n, v in self.flags:
            if n == name:
                return v
        return None

    def label(self):
        return self.binary + (f" {self.command}" if self.command else "")


def split_shell(script):
    """Words of a shell script, operators as separate words, comments dropped."""
    lex = shlex.shlex(script, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = "#"
    return list(lex)


def invocations_in_argv(argv, where, chk, shell_vars=None):
    """The Vertex invocations of a container/healthcheck argv (a shell's -c
    script is searched). Checks that only listed binaries are started."""
    if not argv:
        chk.fail("empty command", where)
        return []
    first = argv[0]
    if os.path.basename(first) in BINARIES:
        chk.ok(True, f"runs {os.path.basename(first)}", where)
        return [Invocation(os.path.basename(first), [str(a) for a in argv[1:]], where)]
    if first in SHELLS:
        if len(argv) < 3 or argv[1] != "-c":
            chk.fail(f"shell command without -c SCRIPT: {argv}", where)
            return []
        script = str(argv[2])
        if shell_vars is not None:
            shell_vars.update(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", script))
        words = split_shell(script)
        result = []
        i = 0
        while i < len(words):
            w = words[i]
            base = os.path.basename(w)
            if re.fullmatch(r"vertex[\w.-]*", base) and base not in BINARIES:
                chk.fail(f"shell script starts {w}, not one of {sorted(BINARIES)}", where)
            if base in BINARIES:
                j = i + 1
                while j < len(words) and words[j] not in SHELL_OPERATORS:
                    j += 1
                result.append(Invocation(base, words[i + 1:j], where))
                i = j
                continue
            i += 1
        chk.ok(bool(result), f"shell script runs {sorted({r.binary for r in result}) or 'no Vertex binary'}",
               where)
        return result
    chk.fail(f"command {first!r} is neither a Vertex binary {sorted(BINARIES)} nor a shell", where)
    return []


def check_flags(inv, chk):
    if inv.binary == "vertexctl":
        if inv.command not in VERTEXCTL_FLAGS:
            chk.fail(f"vertexctl command {inv.command!r} is not one of {sorted(VERTEXCTL_FLAGS)}", inv.where)
            return
        allowed = VERTEXCTL_FLAGS[inv.command]
    else:
        allowed = SERVER_FLAGS[inv.binary]
    for name, value in inv.flags:
        chk.ok(name in allowed, f"{inv.label()} --{name} is a known flag", inv.where)


def check_env(binaries, env_names, shell_vars, where, chk):
    for name in env_names:
        if not name.startswith("VERTEX_"):
            continue
        if name in shell_vars:
            chk.ok(True, f"{name} is read by the container's script", where)
            continue
        flag = name[len("VERTEX_"):].lower().replace("_", "-")
        known = any(flag in SERVER_FLAGS[b] for b in binaries if b in SERVER_FLAGS)
        if "vertexctl" in binaries and name in VERTEXCTL_ENV:
            known = True
        chk.ok(known, f"{name} is the variable of a flag of {sorted(binaries)}", where)


def port_of(hostport):
    if hostport is None or ":" not in hostport:
        return None
    try:
        return int(hostport.rsplit(":", 1)[1])
    except ValueError:
        return None


def load_yaml(path, chk):
    try:
        with open(path, encoding="utf-8") as f:
            return [d for d in yaml.safe_load_all(f) if d is not None]
    except (OSError, yaml.YAMLError) as e:
        chk.fail(f"cannot load: {e}", path)
        return []


def parse_duration(s):
    m = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s)?", str(s))
    if not m or not any(m.groups()):
        return None
    return int(m.group(1) or 0) * 60 + int(m.group(2) or 0)


# ---------------------------------------------------------------- Dockerfile

def check_dockerfile(src, chk):
    path = os.path.join(src, "deploy", "Dockerfile")
    where = "deploy/Dockerfile"
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        chk.fail(f"cannot read: {e}", where)
        return []
    # The last stage is the image.
    stages = re.split(r"(?im)^FROM\s", text)
    last = stages[-1]
    chk.ok(last.lstrip().startswith("debian:12-slim"), "runtime stage is FROM debian:12-slim", where)
    m = re.search(r"(?m)^CMD\s+(\[.*\])\s*$", last)
    invs = []
    if chk.ok(m is not None, "runtime stage has a JSON-form CMD", where):
        argv = json.loads(m.group(1))
        invs = invocations_in_argv(argv, where + " CMD", chk)
        for inv in invs:
            check_flags(inv, chk)
            chk.ok(inv.binary == "vertexd", "default CMD runs vertexd", where)
            chk.ok(inv.flag("listen") == "0.0.0.0:7070", "vertexd --listen 0.0.0.0:7070", where)
            chk.ok((inv.flag("store") or "").startswith("/data/"), "vertexd --store under /data", where)
    m = re.search(r"(?m)^USER\s+(\S+)", last)
    chk.ok(m is not None and m.group(1).split(":")[0] not in ("root", "0"), "runs as a non-root USER", where)
    exposed = set()
    for line in re.findall(r"(?m)^EXPOSE\s+(.*)$", last):
        for p in line.split():
            exposed.add(int(p.split("/")[0]))
    chk.ok({7070, 7071, 7072, 7073} <= exposed, f"EXPOSEs 7070-7073 (has {sorted(exposed)})", where)
    chk.ok(re.search(r"(?m)^VOLUME\s.*/data", last) is not None, "declares the /data volume", where)
    m = re.search(r"--target\s+([^\n&\\]+)", text)
    targets = set(m.group(1).split()) if m else set()
    chk.ok(BINARIES <= targets, f"builds every binary {sorted(BINARIES)}", where)
    return invs


# ------------------------------------------------------------ docker-compose

def check_compose(src, chk):
    path = os.path.join(src, "docker-compose.yml")
    where = "docker-compose.yml"
    docs = load_yaml(path, chk)
    if not chk.ok(len(docs) == 1 and isinstance(docs[0], dict), "one YAML document", where):
        return []
    doc = docs[0]
    chk.ok(str(doc.get("version")) == "3.8", 'compose file format "3.8"', where)
    services = doc.get("services") or {}
    volumes = doc.get("volumes") or {}
    chk.ok("store" in volumes, "declares the named volume store", where)
    invs_all = []
    listen_port = {}
    built = [n for n, s in services.items() if "build" in (s or {})]
    chk.ok(len(built) == 1, f"exactly one service builds the image (has {built})", where)
    for name, svc in services.items():
        w = f"{where} service {name}"
        svc = svc or {}
        chk.ok(svc.get("image") == "vertex:latest", "image vertex:latest", w)
        if "build" in svc:
            b = svc["build"]
            chk.ok(isinstance(b, dict) and b.get("dockerfile") == "deploy/Dockerfile"
                   and b.get("context") in (".", "./"), "builds deploy/Dockerfile from the repo root", w)
        ep = svc.get("entrypoint")
        cmd = svc.get("command")
        if isinstance(ep, str) or isinstance(cmd, str):
            chk.fail("entrypoint/command must be lists (exec form)", w)
            continue
        argv = (ep or []) + (cmd or [])
        if not argv:
            argv = ["vertexd", "--listen", "0.0.0.0:7070", "--store", "/data/store"]  # image CMD
        invs = invocations_in_argv(argv, w, chk)
        env = svc.get("environment") or {}
        env_names = list(env) if isinstance(env, dict) else [e.split("=", 1)[0] for e in env]
        check_env({i.binary for i in invs}, env_names, set(), w, chk)
        if isinstance(env, dict) and "VERTEX_AUTH_TOKEN" in env:
            chk.ok(env["VERTEX_AUTH_TOKEN"] == "${VERTEX_AUTH_TOKEN:-}",
                   "VERTEX_AUTH_TOKEN passed through from the host, empty when unset", w)
        for inv in invs:
            check_flags(inv, chk)
            invs_all.append(inv)
            if inv.binary in SERVER_FLAGS:
                port = port_of(inv.flag("listen"))
                listen_port[name] = port
                chk.ok(inv.flag("listen") is not None and inv.flag("listen").startswith("0.0.0.0:"),
                       f"{inv.binary} listens on all interfaces", w)
                published = []
                for p in svc.get("ports") or []:
                    published.append(int(str(p).split(":")[-1].split("/")[0]))
                chk.ok(port in published, f"publishes its --listen port {port}", w)
                mounts = [str(v) for v in svc.get("volumes") or []]
                store_mounts = [m for m in mounts if m.split(":")[0] == "store"]
                chk.ok(bool(store_mounts) and (inv.flag("store") or "").startswith(
                    store_mounts[0].split(":")[1].rstrip("/") + "/"),
                    f"--store {inv.flag('store')} is on the store volume", w)
                if inv.binary in ("vertex-extraction", "vertex-monitoring"):
                    chk.ok(bool(store_mounts) and store_mounts[0].endswith(":ro"),
                           "mounts the store volume read-only (RocksDB secondary)", w)
                    dep = svc.get("depends_on") or {}
                    chk.ok("learning" in dep, "depends on learning", w)
                hc = svc.get("healthcheck") or {}
                test = hc.get("test") or []
                want = ["CMD", "vertexctl", "health", "--server", f"127.0.0.1:{port}"]
                chk.ok(test == want, f"healthcheck is {want}", w)
                if test and test[0] == "CMD":
                    for hinv in invocations_in_argv(test[1:], w + " healthcheck", chk):
                        check_flags(hinv, chk)
                        invs_all.append(hinv)
                grace = parse_duration(svc.get("stop_grace_period", "10s"))
                drain = inv.flag("drain-seconds")
                if drain is not None:
                    chk.ok(grace is not None and grace > int(drain),
                           f"stop_grace_period {grace}s above --drain-seconds {drain}", w)
    for inv in invs_all:
        ls = inv.flag("learning-server")
        if ls is not None:
            host, port = ls.rsplit(":", 1)
            chk.ok(host in services and listen_port.get(host) == int(port),
                   f"--learning-server {ls} is a service listening on that port", inv.where)
            chk.ok(host in services and any(i.binary == "vertex-learning" and i.where.endswith(f" {host}")
                                            for i in invs_all),
                   f"--learning-server {ls} runs vertex-learning", inv.where)
    for want in ("vertex-learning", "vertex-extraction", "vertex-monitoring"):
        chk.ok(any(i.binary == want for i in invs_all), f"a service runs {want}", where)
    return invs_all


# ---------------------------------------------------------------- Kubernetes

def pod_spec_of(doc):
    kind = doc.get("kind")
    spec = doc.get("spec") or {}
    if kind == "Pod":
        return doc.get("metadata", {}).get("labels") or {}, spec
    if kind == "CronJob":
        tmpl = ((spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}
    else:
        tmpl = spec.get("template") or {}
    return (tmpl.get("metadata") or {}).get("labels") or {}, tmpl.get("spec") or {}


def check_k8s(src, chk):
    root = os.path.join(src, "deploy", "k8s")
    files = sorted(glob.glob(os.path.join(root, "**", "*.yaml"), recursive=True)
                   + glob.glob(os.path.join(root, "**", "*.yml"), recursive=True))
    if not chk.ok(bool(files), "deploy/k8s holds YAML manifests"):
        return []
    objects = []  # (file, doc)
    for f in files:
        rel = os.path.relpath(f, src)
        docs = load_yaml(f, chk)
        chk.ok(bool(docs), f"{len(docs)} object(s)", rel)
        for d in docs:
            if not isinstance(d, dict):
                chk.fail("a document is not a mapping", rel)
                continue
            name = (d.get("metadata") or {}).get("name")
            chk.ok(bool(d.get("apiVersion")) and bool(d.get("kind")) and bool(name),
                   f"{d.get('kind')} {name}: has apiVersion, kind and metadata.name", rel)
            chk.ok("namespace" not in (d.get("metadata") or {}),
                   f"{d.get('kind')} {name}: no namespace (applied into the current one)", rel)
            objects.append((rel, d))

    def of_kind(kind):
        return [(f, d) for f, d in objects if d.get("kind") == kind]

    for kind in ("StatefulSet", "Deployment", "Service", "CronJob", "ConfigMap", "Secret"):
        chk.ok(bool(of_kind(kind)), f"a {kind} is present", "deploy/k8s")

    names = {(d.get("kind"), d["metadata"]["name"]) for _, d in objects if (d.get("metadata") or {}).get("name")}
    services = {d["metadata"]["name"]: d for _, d in of_kind("Service")}
    sts_claims = {}  # claim name -> access modes
    for _, d in of_kind("StatefulSet"):
        for vct in (d.get("spec") or {}).get("volumeClaimTemplates") or []:
            claim = f"{vct['metadata']['name']}-{d['metadata']['name']}-0"
            sts_claims[claim] = (vct.get("spec") or {}).get("accessModes") or []

    workloads = []  # (file, doc, labels, podspec, invocations)
    invs_all = []
    for f, d in objects:
        if d.get("kind") not in POD_KINDS:
            continue
        labels, pod = pod_spec_of(d)
        w = f"{f} {d['kind']} {d['metadata']['name']}"
        containers = pod.get("containers") or []
        chk.ok(bool(containers), "has containers", w)
        sel = ((d.get("spec") or {}).get("selector") or {}).get("matchLabels")
        if d["kind"] in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"):
            chk.ok(bool(sel) and all(labels.get(k) == v for k, v in sel.items()),
                   "selector.matchLabels ⊆ pod template labels", w)
        psc = pod.get("securityContext") or {}
        volumes = {v["name"]: v for v in pod.get("volumes") or []}
        if d["kind"] == "StatefulSet":
            for vct in (d.get("spec") or {}).get("volumeClaimTemplates") or []:
                volumes[vct["metadata"]["name"]] = {"name": vct["metadata"]["name"], "claimTemplate": vct}
        for c in containers:
            cw = f"{w} container {c.get('name')}"
            argv = [str(a) for a in (c.get("command") or [])] + [str(a) for a in (c.get("args") or [])]
            if not c.get("command"):
                argv = ["vertexd", "--listen", "0.0.0.0:7070", "--store", "/data/store"] \
                    if not c.get("args") else ["vertexd"] + argv
            shell_vars = set()
            invs = invocations_in_argv(argv, cw, chk, shell_vars)
            env_names = [e.get("name") for e in c.get("env") or []]
            check_env({i.binary for i in invs}, env_names, shell_vars, cw, chk)
            for e in c.get("env") or []:
                ref = (e.get("valueFrom") or {})
                for key, kind in (("secretKeyRef", "Secret"), ("configMapKeyRef", "ConfigMap")):
                    if key in ref:
                        rn = ref[key].get("name")
                        chk.ok((kind, rn) in names, f"env {e.get('name')} refers to {kind} {rn}, defined here", cw)
                        if e.get("name") == "VERTEX_AUTH_TOKEN":
                            chk.ok(ref[key].get("optional") is True, "VERTEX_AUTH_TOKEN's secretKeyRef is optional", cw)
            if any(i.binary in SERVER_FLAGS for i in invs):
                chk.ok("VERTEX_AUTH_TOKEN" in env_names, "VERTEX_AUTH_TOKEN from the Secret", cw)
            res = c.get("resources") or {}
            chk.ok(bool(res.get("requests")) and bool(res.get("limits"))
                   and {"cpu", "memory"} <= set(res["requests"]) and {"cpu", "memory"} <= set(res["limits"]),
                   "cpu and memory requests and limits", cw)
            csc = c.get("securityContext") or {}
            chk.ok(csc.get("runAsNonRoot", psc.get("runAsNonRoot")) is True
                   and csc.get("runAsUser", psc.get("runAsUser", 1)) != 0, "runs as non-root", cw)
            chk.ok(csc.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation false", cw)
            cports = c.get("ports") or []
            port_numbers = {p.get("containerPort") for p in cports}
            mounts = c.get("volumeMounts") or []

            def mount_for(path):
                best = None
                for m in mounts:
                    mp = m["mountPath"].rstrip("/")
                    if path == mp or path.startswith(mp + "/"):
                        if best is None or len(mp) > len(best["mountPath"].rstrip("/")):
                            best = m
                return best

            for inv in invs:
                check_flags(inv, chk)
                invs_all.append(inv)
                if inv.binary not in SERVER_FLAGS:
                    continue
                lp = port_of(inv.flag("listen"))
                chk.ok(lp in port_numbers, f"--listen port {lp} is a containerPort {sorted(port_numbers)}", cw)
                for probe in ("readinessProbe", "livenessProbe"):
                    p = c.get(probe) or {}
                    chk.ok((p.get("grpc") or {}).get("port") == lp, f"{probe} is grpc on port {lp}", cw)
                drain = inv.flag("drain-seconds")
                grace = pod.get("terminationGracePeriodSeconds", 30)
                chk.ok(drain is not None and int(grace) > int(drain),
                       f"terminationGracePeriodSeconds {grace} above --drain-seconds {drain}", cw)
                store = inv.flag("store")
                sm = mount_for(store) if store else None
                if chk.ok(sm is not None, f"--store {store} is on a mounted volume", cw):
                    vol = volumes.get(sm["name"]) or {}
                    if inv.binary in ("vertex-learning", "vertexd"):
                        chk.ok(d["kind"] == "StatefulSet" and "claimTemplate" in vol,
                               "the store is the StatefulSet's volumeClaimTemplate", cw)
                        chk.ok(not sm.get("readOnly"), "the store is mounted read-write", cw)
                        modes = ((vol.get("claimTemplate") or {}).get("spec") or {}).get("accessModes") or []
                        chk.ok("ReadWriteMany" in modes, f"the store claim is ReadWriteMany (has {modes})", cw)
                    else:
                        claim = (vol.get("persistentVolumeClaim") or {}).get("claimName")
                        chk.ok(claim in sts_claims,
                               f"the store is the learning StatefulSet's claim {claim} ({sorted(sts_claims)})", cw)
                        chk.ok(sm.get("readOnly") is True, "the store is mounted read-only (RocksDB secondary)", cw)
                        sd = inv.flag("secondary-dir")
                        sdm = mount_for(sd) if sd else None
                        chk.ok(sdm is not None and not sdm.get("readOnly")
                               and "emptyDir" in (volumes.get(sdm["name"]) or {}),
                               f"--secondary-dir {sd} is on a writable emptyDir", cw)
            workloads.append((f, d, labels, pod, c, invs))

    # Services: selector ⊆ labels of some pod template; each port's target is a containerPort.
    for f, s in of_kind("Service"):
        w = f"{f} Service {s['metadata']['name']}"
        spec = s.get("spec") or {}
        sel = spec.get("selector") or {}
        pods = [(d, c) for _, d, labels, _, c, _ in workloads
                if sel and all(labels.get(k) == v for k, v in sel.items()) and d["kind"] != "CronJob"]
        if not chk.ok(bool(pods), f"selector {sel} ⊆ the labels of a workload's pods", w):
            continue
        for p in spec.get("ports") or []:
            target = p.get("targetPort", p.get("port"))
            match = any((isinstance(target, int) and cp.get("containerPort") == target)
                        or (isinstance(target, str) and cp.get("name") == target)
                        for _, c in pods for cp in c.get("ports") or [])
            numbers = {cp.get("containerPort") for _, c in pods for cp in c.get("ports") or []
                       if target in (cp.get("containerPort"), cp.get("name"))}
            chk.ok(match and p.get("port") in numbers | ({p.get("port")} if isinstance(target, int) else set()),
                   f"port {p.get('port')} -> {target} is a containerPort of the selected pods", w)

    # The named objects.
    learning = [d for _, d, _, _, _, invs in workloads
                if d["kind"] == "StatefulSet" and any(i.binary == "vertex-learning" for i in invs)]
    if chk.ok(len(learning) == 1, "one StatefulSet runs vertex-learning", "deploy/k8s"):
        d = learning[0]
        chk.ok(d["spec"].get("replicas") == 1, "learning has 1 replica (one RocksDB writer)", "deploy/k8s")
        svc = services.get(d["spec"].get("serviceName"))
        chk.ok(svc is not None and (svc.get("spec") or {}).get("clusterIP") == "None",
               f"learning's serviceName {d['spec'].get('serviceName')} is a headless Service", "deploy/k8s")
    for binary, replicas in (("vertex-extraction", 3), ("vertex-monitoring", None)):
        deps = [d for _, d, _, _, _, invs in workloads
                if d["kind"] == "Deployment" and any(i.binary == binary for i in invs)]
        if chk.ok(len(deps) == 1, f"one Deployment runs {binary}", "deploy/k8s") and replicas:
            chk.ok(deps[0]["spec"].get("replicas") == replicas, f"{binary} has {replicas} replicas", "deploy/k8s")
    ext = services.get("vertex-extraction")
    chk.ok(ext is not None and (ext.get("spec") or {}).get("clusterIP") == "None",
           "Service vertex-extraction is headless (clients balance over pods)", "deploy/k8s")
    # Extraction scales on CPU: a HorizontalPodAutoscaler on its Deployment.
    hpas = [d for _, d in of_kind("HorizontalPodAutoscaler")]
    extraction_deps = {d["metadata"]["name"] for _, d, _, _, _, invs in workloads
                       if d["kind"] == "Deployment" and any(i.binary == "vertex-extraction" for i in invs)}
    on_cpu = [h for h in hpas
              if (h.get("spec") or {}).get("scaleTargetRef", {}).get("kind") == "Deployment"
              and h["spec"]["scaleTargetRef"].get("name") in extraction_deps
              and any((m.get("resource") or {}).get("name") == "cpu" for m in h["spec"].get("metrics") or [])]
    chk.ok(len(on_cpu) == 1, "a HorizontalPodAutoscaler scales the extraction Deployment on CPU", "deploy/k8s")
    for h in on_cpu:
        spec = h["spec"]
        chk.ok(1 <= spec.get("minReplicas", 1) <= spec.get("maxReplicas", 0),
               "the extraction HPA has 1 <= minReplicas <= maxReplicas", "deploy/k8s")

    crons = [d for _, d in of_kind("CronJob")]
    mon = [d for d in crons if d["metadata"]["name"] == "vertex-monitor"]
    if chk.ok(len(mon) == 1, "CronJob vertex-monitor is present", "deploy/k8s"):
        chk.ok(mon[0]["spec"].get("schedule") == "0 3 * * *", "vertex-monitor runs daily at 03:00", "deploy/k8s")
    chk.ok(any(i.binary == "vertexctl" and i.command == "monitor" and " CronJob " in i.where for i in invs_all),
           "a CronJob runs vertexctl monitor", "deploy/k8s")

    # host:port flags name a Service exposing that port whose pods run the right binary.
    for inv in invs_all:
        for flag, want in (("learning-server", "vertex-learning"), ("server", None)):
            v = inv.flag(flag)
            if v is None or v.startswith("127.0.0.1:"):
                continue
            host, _, port = v.rpartition(":")
            host = host.split(".")[0]
            svc = services.get(host)
            ok = svc is not None and any(p.get("port") == int(port) for p in (svc.get("spec") or {}).get("ports") or [])
            chk.ok(ok, f"--{flag} {v} is a Service of these manifests with port {port}", inv.where)
            if ok and want:
                sel = svc["spec"].get("selector") or {}
                runs = any(all(labels.get(k) == val for k, val in sel.items()) and any(i.binary == want for i in invs)
                           for _, _, labels, _, _, invs in workloads)
                chk.ok(runs, f"--{flag} {v} selects pods running {want}", inv.where)
    return invs_all


# ------------------------------------------------------ flags against --help

def find_binary(build, name):
    for cand in sorted(glob.glob(os.path.join(build, "services", "*", name))):
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def flags_accepted(src, build):
    quiet = Checker()
    import io
    import contextlib
    with contextlib.redirect_stdout(io.StringIO()):
        invs = check_dockerfile(src, quiet) + check_compose(src, quiet) + check_k8s(src, quiet)
    used = {}  # (binary, command) -> {flag: where}
    for inv in invs:
        used.setdefault((inv.binary, inv.command), {})
        for name, _ in inv.flags:
            used[(inv.binary, inv.command)].setdefault(name, inv.where)
    paths = {}
    missing = []
    for binary in sorted({b for b, _ in used}):
        p = find_binary(build, binary)
        if p is None:
            missing.append(binary)
        paths[binary] = p
    if missing:
        for b in missing:
            print(f"skipped: {b} not built (no {build}/services/*/{b})")
        return 77
    chk = Checker()
    for (binary, command), flags in sorted(used.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        argv = [paths[binary]] + ([command] if command else []) + ["--help"]
        label = binary + (f" {command}" if command else "")
        try:
            r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30,
                               stdin=subprocess.DEVNULL)
            out = r.stdout.decode("utf-8", "replace")
        except (OSError, subprocess.TimeoutExpired) as e:
            chk.fail(f"{' '.join(argv)}: {e}")
            continue
        print(f"{label} --help: exit {r.returncode}, {len(out.splitlines())} lines")
        for name, where in sorted(flags.items()):
            chk.ok(re.search(r"--" + re.escape(name) + r"(?![\w-])", out) is not None,
                   f"{label} --help lists --{name} (used in {where})")
    return report(chk, "flags passed by the deployment files")


def report(chk, what):
    if chk.failures:
        print(f"\n{len(chk.failures)} of {chk.passed + len(chk.failures)} checks of {what} failed:")
        for f in chk.failures:
            print(f"  FAIL: {f}")
        return 1
    print(f"\nall {chk.passed} checks of {what} passed")
    return 0


def main(argv):
    if len(argv) == 2:
        src = argv[1]
        chk = Checker()
        invs = check_dockerfile(src, chk)
        invs += check_compose(src, chk)
        invs += check_k8s(src, chk)
        return report(chk, "deploy/Dockerfile, docker-compose.yml and deploy/k8s")
    if len(argv) == 4 and argv[2] == "--flags-accepted":
        return flags_accepted(argv[1], argv[3])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
