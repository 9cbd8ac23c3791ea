#!/usr/bin/env bash
# Brings Slurm and MUNGE to a machine that reaches no package registry (a lent GPU node): on this machine (Debian 12,
# or any Debian-like one whose apt can fetch Debian 12's packages), `apt-get download` fetches Debian's slurmctld,
# slurmd, slurm-client, slurm-wlm-basic-plugins, munge, libmunge2 and libpmix2, and every library they load that
# is not part of glibc (found through the same packages installed here: run scripts/setup.sh first), and unpacks
# them into BUNDLE (default .slurm-bundle, ignored by git; about 25 MiB).
# scripts/slurm_local.sh start DIR --bundle BUNDLE then runs the cluster from there on any x86-64 Linux with
# glibc 2.36 or newer (Debian 12, Ubuntu 24.04), where none of these packages is installed.
#
#   scripts/slurm_offline_bundle.sh [BUNDLE]
#
# What is changed in the unpacked files, so that they run from BUNDLE:
# - every program and library gets a RUNPATH of the bundle's own library folders ($ORIGIN-relative, by patchelf,
#   which is fetched the same way and not installed): no LD_LIBRARY_PATH, so the jobs' programs (gpubench-mpi
#   with the machine's own MPI and PMIx) load their own libraries, never the bundle's;
# - the mpi/pmix plugin opens PMIx by an absolute path compiled in (/usr/lib/x86_64-linux-gnu/pmix2/lib); its
#   copy names /tmp/gpubench-slurm-pmix there instead, a link slurm_local.sh points at the bundle's PMIx (the
#   version the plugin was built with; a machine's own may be another major version, which the plugin refuses).
# Where the programs look for slurmstepd, the plugins, the configuration and MUNGE's socket is given to them by
# slurm_local.sh (slurmd -d, PluginDir, SLURM_CONF, AuthInfo=socket=...).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Absolute: ldd names the bundle's own libraries by absolute paths, which are matched against it below.
bundle="$(realpath -m "${1:-${repo}/.slurm-bundle}")"
say() { printf '[slurm_bundle] %s\n' "$*"; }
die() { printf '[slurm_bundle] error: %s\n' "$*" >&2; exit 1; }
{ command -v apt-get >/dev/null && command -v dpkg >/dev/null; } || die "needs apt-get and dpkg (a Debian-like machine)"
[ "$(dpkg --print-architecture)" = amd64 ] || die "makes an x86-64 bundle: run it on an amd64 machine"

packages=(slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge libmunge2 libpmix2)
pmix_link=/tmp/gpubench-slurm-pmix
pmix_dir_compiled=/usr/lib/x86_64-linux-gnu/pmix2/lib
# What every glibc system has: never bundled (a second glibc cannot be loaded beside the machine's own).
system_libs='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libresolv\.so\.2|libutil\.so\.1|libgcc_s\.so\.1|libstdc\+\+\.so\.6)$'

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
rm -rf "${bundle}"
mkdir -p "${bundle}/root" "${work}/debs"

fetch() {  # PACKAGE... into the bundle's root, each once
  local p
  for p in "$@"; do
    grep -qx "${p}" "${work}/fetched" 2>/dev/null && continue
    (cd "${work}/debs" && apt-get download -q "${p}" >/dev/null 2>&1) || die "apt-get download ${p} failed (is the package index current? apt-get update)"
    echo "${p}" >>"${work}/fetched"
  done
  for deb in "${work}/debs"/*.deb; do
    dpkg -x "${deb}" "${bundle}/root"
    # shellcheck disable=SC2016  # dpkg-deb's own fields, not the shell's
    dpkg-deb --show --showformat='${Package} ${Version}\n' "${deb}" >>"${bundle}/PACKAGES"
    mv "${deb}" "${work}/"
  done
}

say "fetching ${packages[*]}"
fetch "${packages[@]}"

# patchelf, unpacked beside the work folder: nothing is installed on this machine.
if command -v patchelf >/dev/null; then
  patchelf=patchelf
else
  (cd "${work}" && apt-get download -q patchelf >/dev/null 2>&1) || die "apt-get download patchelf failed"
  dpkg -x "${work}"/patchelf_*.deb "${work}/patchelf"
  patchelf="${work}/patchelf/usr/bin/patchelf"
fi

lib_dirs=(usr/lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu/slurm-wlm "${pmix_dir_compiled#/}" lib/x86_64-linux-gnu)
elf_files() { find "${bundle}/root" -type f \( -perm -u+x -o -name '*.so*' \) -exec sh -c 'head -c 4 "$1" | grep -q ELF' _ {} \; -print; }
set_runpaths() {
  local f d rel runpath
  while read -r f; do
    runpath=""
    for d in "${lib_dirs[@]}"; do
      rel="$(realpath -m --relative-to="$(dirname "${f}")" "${bundle}/root/${d}")"
      runpath="${runpath:+${runpath}:}\$ORIGIN/${rel}"
    done
    "${patchelf}" --set-rpath "${runpath}" "${f}"
  done < <(elf_files)
}

owner_of() {  # the installed package that holds a library, by its path as found or resolved, /usr merged or not
  local real candidate
  real="$(realpath "$1")"
  for candidate in "$1" "${real}" "${1#/usr}" "${real#/usr}" "/usr$1" "/usr${real}"; do
    dpkg -S "${candidate}" 2>/dev/null | head -1 | cut -d: -f1 | grep . && return 0
  done
  return 0
}

# Every library a bundled program or plugin loads, found here, that the bundle lacks and glibc does not provide:
# fetched from the package that owns it here, until none is missing.
for round in 1 2 3 4 5; do
  set_runpaths
  missing=()
  while read -r f; do
    while read -r name path; do
      [[ "${name}" =~ ${system_libs} ]] && continue
      case "${path}" in "${bundle}"/*) continue ;; esac
      owner="$(owner_of "${path}")"
      [ -n "${owner}" ] || die "${f#"${bundle}/"} needs ${name} (${path}), which no Debian package here owns (the libraries are found by what this machine has installed: run scripts/setup.sh here first, which installs Slurm and MUNGE)"
      missing+=("${owner}")
    done < <(env -u LD_LIBRARY_PATH ldd "${f}" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3} $2 == "=>" && $3 == "not" {print $1, "not-found"}')
  done < <(elf_files)
  [ "${#missing[@]}" -eq 0 ] && break
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  say "round ${round}: also ${missing[*]}"
  fetch "${missing[@]}"
done
[ "${#missing[@]}" -eq 0 ] || die "libraries still missing after 5 rounds: ${missing[*]}"

# The plugin's PMIx path, and the unversioned name it opens (libpmix-dev's link, not worth its package).
plugin="${bundle}/root/usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix_v4.so"
python3 - "${plugin}" "${pmix_dir_compiled}" "${pmix_link}" <<'EOF'
import sys
path, old, new = sys.argv[1], sys.argv[2].encode() + b"\0", sys.argv[3].encode()
data = open(path, "rb").read()
if data.count(old) != 1:
    sys.exit(f"{path}: {old!r} found {data.count(old)} times, expected once")
assert len(new) < len(old)
open(path, "wb").write(data.replace(old, new + b"\0" * (len(old) - len(new))))
EOF
ln -sfn libpmix.so.2 "${bundle}/root${pmix_dir_compiled}/libpmix.so"
echo "${pmix_link}" >"${bundle}/pmix-link"
# The daemons under the names Debian's alternatives give them: Slurm tells which daemon it runs in by the program's
# name (as slurmctld-wlm, slurmctld and slurmd ignore the node's GRES).
for daemon in slurmctld slurmd slurmstepd; do ln -sfn "${daemon}-wlm" "${bundle}/root/usr/sbin/${daemon}"; done

# Only what runs: no documentation, manual pages, systemd units or default configuration.
rm -rf "${bundle}/root/usr/share" "${bundle}/root/etc" "${bundle}/root/lib/systemd" "${bundle}/root/usr/lib/systemd" \
       "${bundle}/root/usr/include"
sort -u -o "${bundle}/PACKAGES" "${bundle}/PACKAGES"
say "bundle in ${bundle}: $(du -sh "${bundle}" | cut -f1), $(wc -l <"${bundle}/PACKAGES") packages (${bundle}/PACKAGES)"
