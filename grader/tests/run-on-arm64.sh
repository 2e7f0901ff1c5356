#!/usr/bin/env bash
# The kit on ARM64 (AArch64), from an x86-64 Debian or Ubuntu machine: builds
# an arm64 Debian root with debootstrap, run through qemu-user-static, clones
# this repository's HEAD into it, builds the clone with the README's `make`
# (the emulator backend: there is no CUDA in the root) and runs a chosen part
# of the tests there. It keeps the emulator's AArch64 side (the fiber switch
# in include/emu_switch.h and src/ctx.S) from breaking unseen.
#
#     sudo grader/tests/run-on-arm64.sh          # as root: debootstrap, chroot, mount
#
# What it checks, in the root:
#   1. `make`: every reference solution graded, full marks (the main job);
#   2. every skeleton scores 0 (test_lab01/02_03/04_05, "skeleton");
#   3. a mutant of each lab loses points (test_lab01 wrong_index, and
#      test_mutant_fails for one mutant of each of labs 02 to 05);
#   4. the missing barrier is found as a race: `gpulab check` of lab 02's
#      missing-second-barrier mutant, checkers on, names a race.
#
# Environment:
#   ROOT=/var/tmp/gpulab-arm64   the arm64 root (made once, then reused;
#                                remove it to start from nothing)
#   SUITE=bookworm MIRROR=http://deb.debian.org/debian
#   OUT=/tmp/gpulab-arm64-run    the logs
#   PART=all                     or "make" (steps 1 only), "tests" (2 to 4)
# Times of each step are printed and kept in $OUT/times.txt. Every arm64
# program runs under qemu, several times slower than natively: on a 2-core
# machine shared with heavy jobs (2026-11-28, load average 5 to 115), the
# root took 4007 s (debootstrap's second stage, configuring the packages;
# it is kept for the next run), the clone 9 s, `make` 2055 s (the kit
# built and every reference solution graded, full marks), the skeletons
# and a mutant of each lab 75 s, the missing barrier's race 9 s.
#
# Under qemu-user, the grader warns once a run "cannot collect what a run
# leaves behind (PR_SET_CHILD_SUBREAPER: Invalid argument)": qemu-user does
# not pass that prctl through to the host kernel (it answers EINVAL for the
# prctl options it does not know), while a real arm64 Linux kernel has it
# (since 3.4). The warning is expected here and means nothing about arm64.
set -uo pipefail
KIT=$(cd "$(dirname "$0")/../.." && pwd)
ROOT=${ROOT:-/var/tmp/gpulab-arm64}
SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
OUT=${OUT:-/tmp/gpulab-arm64-run}
PART=${PART:-all}
# what the kit needs in the root (grader/install-deps.sh names the same for
# apt: a C and C++ compiler, make, pkg-config, cJSON, libpng, pytest), and git
# for the clone
ROOT_PACKAGES=build-essential,make,pkg-config,libcjson-dev,libpng-dev,python3,python3-pytest,git,ca-certificates

die() { echo "run-on-arm64: $*" >&2; exit 1; }
mkdir -p "$OUT" || die "cannot make $OUT"
: > "$OUT/times.txt"

# step NAME COMMAND...: runs it, prints and keeps its wall time
step() {
    local name=$1 t0 rc
    shift
    t0=$(date +%s)
    echo "== $name"
    "$@"
    rc=$?
    printf '%-40s %5ds  rc=%d\n' "$name" $(( $(date +%s) - t0 )) "$rc" | tee -a "$OUT/times.txt"
    return $rc
}

[ "$(id -u)" = 0 ] || die "run as root (debootstrap, chroot and mount need it)"
[ "$(uname -m)" = aarch64 ] && die "this machine is arm64 already: run make and the tests directly"

# ---- the host: debootstrap, qemu-user-static, binfmt_misc -------------------
host_tools() {
    local need=()
    command -v debootstrap >/dev/null || need+=(debootstrap)
    [ -x /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
    command -v update-binfmts >/dev/null || need+=(binfmt-support)
    if [ ${#need[@]} -gt 0 ]; then
        command -v apt-get >/dev/null || die "no apt-get here: install ${need[*]} by hand"
        DEBIAN_FRONTEND=noninteractive apt-get update -q > "$OUT/apt.log" 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "${need[@]}" \
            >> "$OUT/apt.log" 2>&1 || { tail -20 "$OUT/apt.log"; die "installing ${need[*]} failed"; }
    fi
    # a container or a minimal system may not have binfmt_misc mounted
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
            || die "binfmt_misc is not mounted and cannot be (/proc/sys/fs/binfmt_misc): a container needs --privileged"
    fi
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 > /dev/null 2>&1
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] \
        || die "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --display qemu-aarch64)"
}

# ---- the arm64 root -------------------------------------------------------
make_root() {
    if [ -x "$ROOT/usr/bin/make" ] && [ -e "$ROOT/.gpulab-root-done" ]; then
        echo "reusing $ROOT"
        return 0
    fi
    rm -rf "$ROOT"
    # --foreign: the first stage only unpacks, on this machine; the second
    # configures the packages, running arm64 binaries through qemu
    debootstrap --arch=arm64 --foreign --variant=minbase --include="$ROOT_PACKAGES" \
        "$SUITE" "$ROOT" "$MIRROR" > "$OUT/debootstrap.log" 2>&1 \
        || { tail -20 "$OUT/debootstrap.log"; die "debootstrap (first stage) failed"; }
    # binfmt's F flag loads the interpreter once; a copy inside the root makes
    # the root work where it is registered without F too
    cp /usr/bin/qemu-aarch64-static "$ROOT/usr/bin/"
    chroot "$ROOT" /debootstrap/debootstrap --second-stage >> "$OUT/debootstrap.log" 2>&1 \
        || { tail -20 "$OUT/debootstrap.log"; die "debootstrap (second stage, under qemu) failed"; }
    touch "$ROOT/.gpulab-root-done"
}

MOUNTED=()
unmount_all() {
    local i
    for (( i=${#MOUNTED[@]}-1; i>=0; i-- )); do umount -l "${MOUNTED[$i]}" 2>/dev/null; done
}
trap unmount_all EXIT
mount_root() {
    local m
    for m in proc dev dev/pts; do
        mountpoint -q "$ROOT/$m" && continue
        case $m in
            proc) mount -t proc proc "$ROOT/proc" ;;
            *) mount --bind "/$m" "$ROOT/$m" ;;
        esac || die "cannot mount $ROOT/$m"
        MOUNTED+=("$ROOT/$m")
    done
}

# in_root COMMAND: runs a bash command in the root, in the clone
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
        /bin/bash -c "cd /root/gpulab && $1"
}

# ---- a fresh clone of this repository's HEAD -------------------------------
clone() {
    rm -rf "$ROOT/root/gpulab"
    git clone -q --no-hardlinks "$KIT" "$ROOT/root/gpulab" || die "git clone of $KIT failed"
    git -C "$ROOT/root/gpulab" log -1 --format='%h %s' | cut -c1-100
    in_root 'uname -m; gcc --version | head -1'
}

main_job() {
    # the README's first command: builds the kit, then grades every reference
    # solution on the default backend (here the emulator)
    in_root 'make' > "$OUT/make.log" 2>&1
    local rc=$?
    grep -E "^(==|[0-9]{2}-|.*score)" "$OUT/make.log" | tail -15
    [ $rc -eq 0 ] || tail -30 "$OUT/make.log"
    return $rc
}

chosen_tests() {
    # every skeleton 0; a mutant of each lab loses points (01: wrong_index;
    # 02 to 05: one of each lab's held mutants)
    in_root 'python3 -m pytest -q -rs -p no:cacheprovider \
        grader/tests/test_lab01.py grader/tests/test_lab02_03.py grader/tests/test_lab04_05.py \
        -k "skeleton or wrong_index_is_wrong or (mutant_fails and (swapped-tx-ty or mask-flipped))"' \
        > "$OUT/pytest.log" 2>&1
    local rc=$?
    grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head -20
    tail -1 "$OUT/pytest.log"
    return $rc
}

race_found() {
    # the checkers on (no --no-sanitize): the emulator's race mode must name
    # the race of a tile read before every thread has written it
    in_root './gpulab check 02-tiled-matmul solutions/02-tiled-matmul/mutants/missing-second-barrier.cu \
        --backend emu --dataset width-0064' > "$OUT/race.txt" 2>&1
    grep -iE "race|barrier|score" "$OUT/race.txt" | head -8
    # the checkers' finding, not only the wrong answer: "- race: the write of
    # shared memory at line N (...) and the read at line M (...) race ..."
    grep -qE "^ *- race: the write of shared memory" "$OUT/race.txt" \
        || { echo "no race named (see $OUT/race.txt)"; return 1; }
}

# all of it in one function, read whole before it starts: an edit of this
# file during a run (an hour under qemu) cannot change what the run does
main() {
    local status=0
    step "host tools (debootstrap, qemu)" host_tools || exit 1
    step "arm64 root (debootstrap)" make_root || exit 1
    mount_root
    step "fresh clone" clone || exit 1
    if [ "$PART" != tests ]; then
        step "make (every reference solution)" main_job || status=1
    fi
    if [ "$PART" != make ]; then
        [ -x "$ROOT/root/gpulab/gpulab" ] || in_root 'make kit' > "$OUT/make.log" 2>&1
        step "skeletons 0, a mutant of each lab" chosen_tests || status=1
        step "missing barrier found as a race" race_found || status=1
    fi
    # said once, whichever step met it (see the top of this script)
    if grep -qs "PR_SET_CHILD_SUBREAPER: Invalid argument" "$OUT"/make.log "$OUT"/pytest.log "$OUT"/race.txt; then
        echo "note: the runs' warning 'cannot collect what a run leaves behind (PR_SET_CHILD_SUBREAPER:" \
             "Invalid argument)' is qemu-user's (it does not pass that prctl through), not arm64's"
    fi
    echo "== times (also in $OUT/times.txt)"
    cat "$OUT/times.txt"
    exit $status
}
main "$@"
