"""Execution identity per docs/design.md#execution-identity, as the Kiro Crew gateway (Python) computes it.

Standard library only; imported by write_records.py and read_cache.py. The verdict-cache identity
(docs/design.md#cache-identity) depends on the current directory (relative file arguments) and on PATH (the command and
file-argument lookups), so compute it where kcshare computed it.
"""

import hashlib
import os
import shutil

SECRET_PREFIXES = ("AWS_SECRET", "AWS_SESSION", "OAUTH")
SCHEMA = 2
LARGE = 4 * 1024 * 1024


def command_args_hash(command, args):
    h = hashlib.sha256()
    h.update(command.encode("utf-8") + b"\0")
    for a in args:
        h.update(a.encode("utf-8") + b"\0")
    return h.hexdigest()


def env_hash(env, identity_keys=()):
    kept = {k: v for k, v in env.items()
            if not k.startswith(SECRET_PREFIXES) or k in identity_keys}
    h = hashlib.sha256()
    for k in sorted(kept):  # Python sorts str by code point
        h.update(k.encode("utf-8") + b"=" + str(kept[k]).encode("utf-8") + b"\0")
    return h.hexdigest()


def fp(s):
    try:
        found = shutil.which(s)
        path = os.path.realpath(found if found else s)
        if not os.path.isfile(path):
            return "unknown"
        st = os.stat(path)
        if st.st_size > LARGE:
            return "sz%d-mt%d" % (st.st_size, int(st.st_mtime))
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()[:24]
    except OSError:
        return "unknown"


def binary_version(command, args):
    parts = [fp(command)]
    for a in args:
        if a and not a.startswith("-"):
            try:
                if os.path.isfile(a):
                    parts.append(fp(a))
            except OSError:
                pass
    return "\0".join(parts)


def cache_identity(command, args, env):
    """The cache identity: command_args_hash NUL env_hash (no identity keys) NUL binary_version NUL SCHEMA."""
    return "\0".join(
        [command_args_hash(command, args), env_hash(env), binary_version(command, args),
         str(SCHEMA)])
