#!/usr/bin/env bash
# The kernel tier's rig: a small QEMU guest whose kernel has the `gpio-sim` driver, so gpiozero's
# LGPIOFactory and the real lgpio drive a real /dev/gpiochip0 (line ownership, kernel edge
# stamps, pulls, lgpio's alert thread) instead of mock pins. tests/kernel/README.md says more.
#
#   rig.sh check           say what is missing to build and run the guest (exit 3 if anything)
#   rig.sh deps            apt-get install what is missing (root; once per machine)
#   rig.sh build           build the guest into $KGPIO_CACHE once: kernel, gpio-sim.ko, initramfs,
#                          and lgpio for the guest's Python
#   rig.sh run [--] CMD    boot the guest, create the chip, run CMD in the current directory
#                          there, power off; the exit status is CMD's
#
# The guest sees the host's file system read-only (a tmpfs overlay takes its writes) and the
# current directory read-write, so the project's venv and checkout run inside as they are.
# Variables: KGPIO_CACHE (default ~/.cache/uno-attack/kgpio), KGPIO_PYTHON (the Python whose
# version lgpio is installed for; default python3), KGPIO_KVER (the kernel ABI; default what
# Debian's linux-image-amd64 depends on), KGPIO_LINES (28: GPIO0..GPIO27), KGPIO_MEM (MiB,
# 1024), KGPIO_CPUS (1: faster than 2 under software emulation on a busy 2-core host),
# KGPIO_ACCEL=tcg|kvm (tcg), KGPIO_DEBUG=1 (the kernel's boot log). Variables named KGPIO_*,
# UNO_ATTACK_*, GPIOZERO_*, LG_*, PYTHON* and PYTEST_* reach CMD.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${KGPIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uno-attack/kgpio}
PY=${KGPIO_PYTHON:-python3}
LINES=${KGPIO_LINES:-28}
LGPIO=lgpio==0.2.2.0
SRCPKG=linux-source-6.1
TOOLS="qemu-system-x86_64 depmod cpio xz gcc make"

log() { printf '[kernel tier] %s\n' "$*" >&2; }

kernel_abi() {  # the ABI Debian's linux-image-amd64 points at now: the mirror keeps only that one
  [ -n "${KGPIO_KVER:-}" ] && { echo "$KGPIO_KVER"; return; }
  apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/.*Depends: linux-image-//p' | head -1
}

missing() {  # what the build needs and this machine lacks, one per line
  local tool kver
  for tool in $TOOLS; do command -v "$tool" >/dev/null || echo "$tool"; done
  [ -f /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || echo "busybox-static"
  kver=$(kernel_abi)
  [ -n "$kver" ] || { echo "apt's linux-image-amd64 (run apt-get update)"; return; }
  [ -f "$CACHE/kernel/vmlinuz" ] && [ -f "$CACHE/mod/gpio-sim.ko" ] && return
  [ -d "/usr/src/linux-headers-$kver" ] || echo "linux-headers-$kver"
  [ -f "/usr/src/$SRCPKG.tar.xz" ] || echo "$SRCPKG"
}

check() {
  local gaps; gaps=$(missing | sort -u | tr '\n' ' ')
  [ -z "$gaps" ] && return 0
  log "missing: $gaps"
  log "install them with 'sudo $0 deps' (Debian bookworm; about 270 MB)"
  return 3
}

deps() {
  [ -n "$(missing)" ] || return 0
  [ "$(id -u)" = 0 ] || { check || true; log "deps needs root"; exit 3; }
  log "installing the guest's build tools with apt-get"
  apt-get update -q >/dev/null
  local kver; kver=$(kernel_abi)
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "linux-headers-$kver" "$SRCPKG" qemu-system-x86 busybox-static xz-utils kmod cpio gcc make \
    libc6-dev >/dev/null
}

build_kernel_tree() {  # Debian's kernel image and the few modules the guest loads, unpacked
  [ -f "$CACHE/kernel/vmlinuz" ] && return
  local kver pkg deb; kver=$(kernel_abi); pkg=linux-image-$kver
  log "kernel: fetching $pkg"
  mkdir -p "$CACHE/kernel/deb"
  deb=$(ls "$CACHE"/kernel/deb/"$pkg"_*.deb 2>/dev/null | head -1 || true)
  if [ -z "$deb" ]; then
    (cd "$CACHE/kernel/deb" && apt-get download -q "$pkg" >/dev/null)
    deb=$(ls "$CACHE"/kernel/deb/"$pkg"_*.deb | head -1)
  fi
  rm -rf "$CACHE/kernel/x"; mkdir -p "$CACHE/kernel/x"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$CACHE/kernel/x" \
    --wildcards "./boot/vmlinuz-*" "./lib/modules/$kver/modules.*" \
    "./lib/modules/$kver/kernel/fs/*" "./lib/modules/$kver/kernel/net/9p/*" \
    "./lib/modules/$kver/kernel/drivers/virtio/*" "./lib/modules/$kver/kernel/lib/*"
  depmod -b "$CACHE/kernel/x" "$kver"  # the .deb ships no modules.dep (its postinst makes it)
  echo "$kver" > "$CACHE/kernel/abi"
  cp "$CACHE/kernel/x/boot/vmlinuz-$kver" "$CACHE/kernel/vmlinuz"
}

build_module() {  # gpio-sim.ko, with the irq_sim helper Debian's config leaves out, out of tree
  [ "$CACHE/mod/gpio-sim.ko" -nt "$HERE/rig.sh" ] && return  # a new patch here builds it anew
  local kver src hdr; kver=$(cat "$CACHE/kernel/abi")
  src=/usr/src/$SRCPKG.tar.xz hdr=/usr/src/linux-headers-$kver
  local vs vh
  vs=$(dpkg-query -W -f '${Version}' "$SRCPKG" 2>/dev/null || true)
  vh=$(dpkg-query -W -f '${Version}' "linux-headers-$kver" 2>/dev/null || true)
  [ "$vs" = "$vh" ] || log "warning: $SRCPKG $vs differs from the headers' $vh"
  log "module: gpio-sim from $SRCPKG $vs"
  rm -rf "$CACHE/mod"; mkdir -p "$CACHE/mod/src"
  tar -xJf "$src" -C "$CACHE/mod/src" --strip-components=1 "$SRCPKG/drivers/gpio/gpio-sim.c" \
    "$SRCPKG/drivers/gpio/gpiolib.h" "$SRCPKG/kernel/irq/irq_sim.c"
  # keep_level (a module parameter, off by default): a freed output keeps its last level, as on
  # Raspberry Pi OS without dtparam=strict_gpiod, instead of reverting to its pull
  sed -e 's/^#include "gpiolib.h"$/&\nstatic bool keep_level;\nmodule_param(keep_level, bool, 0644);/' \
    -e 's/^\t__assign_bit(offset, chip->value_map, !!test_bit(offset, chip->pull_map));$/\tif (!keep_level)\n&/' \
    "$CACHE/mod/src/drivers/gpio/gpio-sim.c" > "$CACHE/mod/gpio-sim-core.c"
  [ "$(grep -c keep_level "$CACHE/mod/gpio-sim-core.c")" = 3 ] || { log "gpio-sim.c: patch failed"; exit 2; }
  cp "$CACHE/mod/src/drivers/gpio/gpiolib.h" "$CACHE/mod/gpiolib.h"
  # irq_to_desc() is not exported to modules; generic_handle_irq() runs the same handler
  sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' \
    "$CACHE/mod/src/kernel/irq/irq_sim.c" > "$CACHE/mod/irq_sim.c"
  grep -q 'generic_handle_irq(irqnum)' "$CACHE/mod/irq_sim.c" || { log "irq_sim.c: patch failed"; exit 2; }
  printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-core.o irq_sim.o\nccflags-y := -I$(src)\n' \
    > "$CACHE/mod/Kbuild"
  make -s -C "$hdr" M="$CACHE/mod" modules > "$CACHE/mod/build.log" 2>&1 \
    || { cat "$CACHE/mod/build.log"; rm -f "$CACHE/mod/gpio-sim.ko"; exit 2; }
  rm -rf "$CACHE/mod/src"
}

WANT="virtio_pci 9pnet_virtio 9p overlay configfs"  # the guest's modules, with what they need

build_initramfs() {
  [ "$CACHE/initramfs.cpio.gz" -nt "$HERE/guest-init.sh" ] \
    && [ "$CACHE/initramfs.cpio.gz" -nt "$CACHE/mod/gpio-sim.ko" ] && return
  local kver root mdir; kver=$(cat "$CACHE/kernel/abi")
  root=$CACHE/initramfs mdir=$CACHE/kernel/x/lib/modules/$kver
  rm -rf "$root"; mkdir -p "$root"/{bin,dev,proc,sys,mnt,host,newroot,lib/modules}
  cp /bin/busybox "$root/bin/busybox"
  local a; for a in sh mount insmod cat mkdir poweroff chroot sed cut stty sync cp grep; do
    ln -sf busybox "$root/bin/$a"; done
  local order=()
  resolve() {  # $1 and what it depends on, dependencies first, from modules.dep
    local line dep
    line=$(grep -E "/${1//_/[-_]}\.ko(\.xz)?:" "$mdir/modules.dep" | head -1) \
      || { log "no module $1"; exit 2; }
    for dep in ${line#*:}; do resolve "$(basename "$dep" | sed -E 's/\.ko(\.xz)?$//')"; done
    case " ${order[*]} " in *" ${line%%:*} "*) ;; *) order+=("${line%%:*}") ;; esac
  }
  local m; for m in $WANT; do resolve "$m"; done
  : > "$root/lib/modules/order"
  local path b; for path in "${order[@]}"; do
    b=$(basename "$path")
    case "$b" in
      *.xz) xz -dc "$mdir/$path" > "$root/lib/modules/${b%.xz}"; b=${b%.xz} ;;
      *) cp "$mdir/$path" "$root/lib/modules/$b" ;;
    esac
    echo "$b" >> "$root/lib/modules/order"
  done
  cp "$CACHE/mod/gpio-sim.ko" "$root/lib/modules/"; echo gpio-sim.ko >> "$root/lib/modules/order"
  cp "$HERE/guest-init.sh" "$root/init"; chmod +x "$root/init"
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$CACHE/initramfs.cpio.gz"
}

build_lgpio() {  # the real lgpio, for the guest only: the host's tests never import it
  local version; version=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  [ -f "$CACHE/lgpio-$version/lgpio.py" ] && return
  log "lgpio: $LGPIO for Python $version"
  "$PY" -m pip install -q --disable-pip-version-check --target "$CACHE/lgpio-$version" "$LGPIO"
}

build() {
  check
  local t0=$SECONDS
  mkdir -p "$CACHE"
  build_kernel_tree; build_module; build_initramfs; build_lgpio
  [ $((SECONDS - t0)) -lt 2 ] || log "built in $((SECONDS - t0)) s into $CACHE"
}

run() {
  [ "${1:-}" = "--" ] && shift
  [ $# -gt 0 ] || { log "usage: $0 run CMD..."; exit 2; }
  build
  local share ctl version
  share=$(pwd) ctl=$(mktemp -d "${TMPDIR:-/tmp}/kgpio-run.XXXXXX")
  version=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  {  # the guest's job, read from the control directory (shared read-write as its own 9p tag)
    echo "#!/bin/sh"
    echo "export KGPIO_GUEST=1 KGPIO_LINES=$LINES"
    echo "export PATH=$(printf %q "$PATH") HOME=$(printf %q "$HOME") LANG=C.UTF-8"
    echo "export PYTHONPATH=$(printf %q "$CACHE/lgpio-$version${PYTHONPATH:+:$PYTHONPATH}")"
    local v; for v in $(compgen -e | grep -E '^(KGPIO_|UNO_ATTACK_|GPIOZERO_|LG_|PYTEST_)' || true); do
      echo "export $v=$(printf %q "${!v}")"; done
    echo "cd $(printf %q "$share")"
    printf 'exec'; printf ' %q' "$@"; echo
  } > "$ctl/job.sh"
  # software emulation by default: it needs neither /dev/kvm nor root
  local accel=(-accel tcg -cpu max)
  [ "${KGPIO_ACCEL:-tcg}" = kvm ] && accel=(-enable-kvm -cpu host)
  local quiet="quiet loglevel=1"; [ -n "${KGPIO_DEBUG:-}" ] && quiet="loglevel=7"
  local t0=$SECONDS qrc=0
  qemu-system-x86_64 "${accel[@]}" -m "${KGPIO_MEM:-1024}" -smp "${KGPIO_CPUS:-1}" \
    -nodefaults -no-user-config -nographic -no-reboot -serial stdio -monitor none \
    -kernel "$CACHE/kernel/vmlinuz" -initrd "$CACHE/initramfs.cpio.gz" \
    -append "console=ttyS0 panic=-1 $quiet kgpio.share=$share" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs local,path="$share",mount_tag=share,security_model=none,multidevs=remap \
    -virtfs local,path="$ctl",mount_tag=ctl,security_model=none \
    < /dev/null || qrc=$?
  local rc=99
  [ -f "$ctl/rc" ] && rc=$(cat "$ctl/rc")
  if [ -f "$ctl/boot" ]; then
    log "guest ready after $(cat "$ctl/boot") s; the whole run took $((SECONDS - t0)) s"
  else
    log "the guest never ran the job (qemu exit $qrc): KGPIO_DEBUG=1 shows the kernel's log"
  fi
  rm -rf "$ctl"
  return "$rc"
}

case "${1:-}" in
  check) check ;;
  deps) deps ;;
  build) build ;;
  run) shift; run "$@" ;;
  clean) rm -rf "$CACHE" ;;
  *) sed -n '2,21p' "$0"; exit 2 ;;
esac
