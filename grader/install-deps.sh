#!/usr/bin/env bash
# install-deps.sh - the one place where the kit installs what it needs.
#
#   grader/install-deps.sh build    what building the kit needs: make, a C
#                                   compiler, pkg-config, and the headers and
#                                   libraries of cJSON and libpng (the image
#                                   labs' error maps are PNG files)
#   grader/install-deps.sh test     what `make test` needs: pytest, and where
#                                   packages can be installed, chromium (the
#                                   HTML pages' browser test) and Slurm with
#                                   munge (test_slurm.py's one-node cluster),
#                                   whose tests skip with their reason without
#                                   them; prints on standard output the python
#                                   to run pytest with
#
# The Makefile runs `build` before every target that builds and `test` before
# the test suite; .ci/run, the Gradescope package's setup.sh and the docs use
# the same script, so a fresh machine needs nothing but the README's two
# commands.
#
# Packages come from the distribution: apt-get (Debian, Ubuntu), dnf (Fedora,
# RHEL) or Homebrew (macOS), as root or through `sudo -n` where either is
# available. Where neither is, `build` prints ONE line saying what to run by
# hand (or how to point the kit at a cJSON or libpng of your own with
# CJSON_CFLAGS and CJSON_LIBS, PNG_CFLAGS and PNG_LIBS) and exits 1; the Makefile shows that line as its error.
#
# Progress goes to standard error; standard output carries only the result
# (the one-line instruction for `build`, the python for `test`).
#
# Environment: PYTHON (default python3) is the interpreter `test` tries first;
# GPULAB_NO_INSTALL=1 never installs anything (useful to see what is missing).
set -uo pipefail

say() { printf 'install-deps: %s\n' "$*" >&2; }

# ---- which package manager, and can we use it? --------------------------------
package_manager() {
    if command -v apt-get >/dev/null 2>&1; then echo apt
    elif command -v dnf >/dev/null 2>&1; then echo dnf
    elif command -v brew >/dev/null 2>&1; then echo brew
    else echo none
    fi
}

# How to run a command as root: "" when we are root, "sudo -n" when sudo works
# without a password; exits 1 when neither (Homebrew never wants root).
as_root_prefix() {
    if [ "$(package_manager)" = brew ]; then echo ""; return 0; fi
    if [ "$(id -u)" -eq 0 ]; then echo ""; return 0; fi
    if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then echo "sudo -n"; return 0; fi
    return 1
}

# The distribution's package names for each thing the kit needs.
#   $1: pm (apt, dnf, brew), $2: what (cc, make, pkg-config, cjson, png, pytest, chromium, slurm)
package_name() {
    case "$1:$2" in
        apt:cc) echo build-essential ;;
        apt:make) echo make ;;
        apt:pkg-config) echo pkg-config ;;
        apt:cjson) echo libcjson-dev ;;
        apt:png) echo libpng-dev ;;
        apt:pytest) echo python3-pytest ;;
        apt:xdist) echo python3-pytest-xdist ;;
        apt:chromium) echo chromium ;;
        apt:slurm) echo slurm-wlm munge ;;
        dnf:cc) echo gcc ;;
        dnf:make) echo make ;;
        dnf:pkg-config) echo pkgconf-pkg-config ;;
        dnf:cjson) echo cjson-devel ;;
        dnf:png) echo libpng-devel ;;
        dnf:pytest) echo python3-pytest ;;
        dnf:xdist) echo python3-pytest-xdist ;;
        dnf:chromium) echo chromium ;;
        dnf:slurm) echo slurm slurm-slurmctld slurm-slurmd munge ;;
        brew:cc) echo "" ;;          # Xcode's command-line tools, not a formula
        brew:make) echo "" ;;
        brew:pkg-config) echo pkg-config ;;
        brew:cjson) echo cjson ;;
        brew:png) echo libpng ;;
        brew:pytest) echo "" ;;      # no formula: the private venv is used
        brew:xdist) echo "" ;;
        brew:chromium) echo "" ;;    # a cask, not a formula: not installed here
        brew:slurm) echo "" ;;       # no one-node cluster on macOS: test_slurm.py skips
        *) echo "" ;;
    esac
}

# The command a person would type to install the given packages.
install_command() {
    local pm=$1; shift
    case $pm in
        apt) echo "sudo apt-get install -y $*" ;;
        dnf) echo "sudo dnf install -y $*" ;;
        brew) echo "brew install $*" ;;
        *) echo "install $* with your system's package manager" ;;
    esac
}

APT_UPDATED=
# Another apt-get (a second `make` beside this one, the system's own updates)
# holds dpkg's lock for a while: wait for it, up to five minutes, instead of
# failing at once.
APT_WAIT="-o DPkg::Lock::Timeout=300"
# Install packages, quietly unless it fails; returns the package manager's status.
install_packages() {
    local pm=$1 prefix=$2; shift 2
    [ $# -gt 0 ] || return 0
    [ "${GPULAB_NO_INSTALL:-}" = 1 ] && return 1
    say "installing $* ($pm)"
    local log
    log=$(mktemp) || return 1
    local rc=0
    case $pm in
        apt)
            if [ -z "$APT_UPDATED" ]; then
                $prefix env DEBIAN_FRONTEND=noninteractive apt-get $APT_WAIT update -q >"$log" 2>&1 || rc=$?
                APT_UPDATED=1
            fi
            [ $rc -eq 0 ] && { $prefix env DEBIAN_FRONTEND=noninteractive apt-get $APT_WAIT install -y -q \
                --no-install-recommends "$@" >>"$log" 2>&1 || rc=$?; }
            ;;
        dnf) $prefix dnf install -y -q "$@" >"$log" 2>&1 || rc=$? ;;
        brew) brew install "$@" >"$log" 2>&1 || rc=$? ;;
        *) rc=1 ;;
    esac
    if [ $rc -ne 0 ]; then
        say "the package manager failed (exit $rc); its last lines:"
        tail -n 5 "$log" >&2
    fi
    rm -f "$log"
    return $rc
}

have_cc() { command -v "${CC:-gcc}" >/dev/null 2>&1 || command -v cc >/dev/null 2>&1; }
have_pkg_config() { command -v pkg-config >/dev/null 2>&1; }
have_cjson() { have_pkg_config && pkg-config --exists libcjson 2>/dev/null; }
have_png() { have_pkg_config && pkg-config --exists libpng 2>/dev/null; }

# ---- build -------------------------------------------------------------------
deps_build() {
    # A cJSON or libpng given on the command line (make CJSON_LIBS=...,
    # PNG_LIBS=...) needs nothing from us.
    local need=()
    have_cc || need+=(cc)
    command -v make >/dev/null 2>&1 || need+=(make)
    if { [ -z "${CJSON_LIBS:-}" ] || [ -z "${PNG_LIBS:-}" ]; } && ! have_pkg_config; then
        need+=(pkg-config)
    fi
    [ -z "${CJSON_LIBS:-}" ] && ! have_cjson && need+=(cjson)
    [ -z "${PNG_LIBS:-}" ] && ! have_png && need+=(png)
    [ ${#need[@]} -eq 0 ] && return 0

    local pm packages=() p
    pm=$(package_manager)
    for p in "${need[@]}"; do
        # shellcheck disable=SC2207
        packages+=($(package_name "$pm" "$p"))
    done
    local how_by_hand
    how_by_hand="$(install_command "$pm" "${packages[@]}")"
    local missing="" what
    for p in "${need[@]}"; do
        case $p in
            cc) what="a C compiler" ;;
            cjson) what="cJSON" ;;
            png) what="libpng" ;;
            *) what=$p ;;
        esac
        missing="${missing:+$missing and }$what"
    done
    # the way round installing, for each library that is missing
    local flags=""
    [[ " ${need[*]} " == *" cjson "* ]] && flags="CJSON_CFLAGS=-I/path/to/include CJSON_LIBS='-L/path/to/lib -lcjson'"
    [[ " ${need[*]} " == *" png "* ]] && flags="${flags:+$flags }PNG_CFLAGS=-I/path/to/include PNG_LIBS='-L/path/to/lib -lpng16'"
    [ -z "$flags" ] && flags="CJSON_CFLAGS=-I/path/to/include CJSON_LIBS='-L/path/to/lib -lcjson'"
    local prefix
    if [ "$pm" = none ] || [ ${#packages[@]} -eq 0 ] || ! prefix=$(as_root_prefix) \
        || [ "${GPULAB_NO_INSTALL:-}" = 1 ]; then
        echo "the kit needs $missing and this user cannot install packages: run '$how_by_hand', or build with make $flags"
        return 1
    fi
    if ! install_packages "$pm" "$prefix" "${packages[@]}"; then
        echo "installing ${packages[*]} failed (see above): run '$how_by_hand' by hand, or build with make $flags"
        return 1
    fi
    if ! have_cc || { [ -z "${CJSON_LIBS:-}" ] && ! have_cjson; }; then
        echo "${packages[*]} installed, but cJSON is still not found by pkg-config: build with make CJSON_CFLAGS=-I/path/to/include CJSON_LIBS='-L/path/to/lib -lcjson'"
        return 1
    fi
    if [ -z "${PNG_LIBS:-}" ] && ! have_png; then
        echo "${packages[*]} installed, but libpng is still not found by pkg-config: build with make PNG_CFLAGS=-I/path/to/include PNG_LIBS='-L/path/to/lib -lpng16'"
        return 1
    fi
    say "installed ${packages[*]}"
    return 0
}

# ---- test --------------------------------------------------------------------
has_pytest() { "$1" -c 'import pytest' >/dev/null 2>&1; }
has_xdist() { "$1" -c 'import xdist' >/dev/null 2>&1; }

# pytest-xdist, so that `make test` uses every core (the Makefile runs the
# suite without it too, one test at a time): the distribution's package for
# the system's python, pip for the kit's own venv. Optional; never fails.
ensure_xdist() {
    local py=$1
    has_xdist "$py" && return 0
    [ "${GPULAB_NO_INSTALL:-}" = 1 ] && return 0
    if [ "$py" = "$PWD/$VENV/bin/python" ] || [ "$py" = "$VENV/bin/python" ]; then
        "$py" -m pip install -q pytest-xdist >&2 || say "pytest-xdist did not install: the tests will run one at a time"
        return 0
    fi
    local pm prefix p
    pm=$(package_manager)
    p=$(package_name "$pm" xdist)
    if [ -n "$p" ] && prefix=$(as_root_prefix); then
        install_packages "$pm" "$prefix" "$p" 2>/dev/null || true
    fi
    has_xdist "$py" || say "no pytest-xdist for $py: the tests will run one at a time"
    return 0
}

# A private virtual environment in the kit's build folder (ignored by git).
VENV=build/test-venv
venv_python() {
    if [ -x "$VENV/bin/python" ] && has_pytest "$VENV/bin/python"; then
        echo "$VENV/bin/python"; return 0
    fi
    [ "${GPULAB_NO_INSTALL:-}" = 1 ] && return 1
    local base=$1
    say "making a private virtual environment with pytest in $VENV"
    rm -rf "$VENV"
    "$base" -m venv "$VENV" >&2 || return 1
    "$VENV/bin/python" -m pip install -q pytest >&2 || return 1
    has_pytest "$VENV/bin/python" && echo "$VENV/bin/python"
}

deps_test() {
    local py=${PYTHON:-python3} pm prefix=""
    pm=$(package_manager)
    local can_install=1
    prefix=$(as_root_prefix) || can_install=0
    [ "${GPULAB_NO_INSTALL:-}" = 1 ] && can_install=0

    # A real browser for the HTML pages' test (grader/tests/test_html.py).
    # Optional: a failed install is one line here, and the test skips with
    # its reason.
    if [ $can_install = 1 ] && ! command -v chromium >/dev/null 2>&1 \
        && ! command -v chromium-browser >/dev/null 2>&1; then
        local browser
        browser=$(package_name "$pm" chromium)
        if [ -n "$browser" ]; then
            say "installing $browser for the HTML pages' browser test ($pm)"
            install_packages "$pm" "$prefix" "$browser" 2>/dev/null \
                || say "chromium did not install ($pm): the HTML browser test will be skipped"
        fi
    fi

    # Slurm and munge for gpulab slurm's tests (grader/tests/test_slurm.py),
    # which start a one-node cluster of their own as root. Optional like
    # chromium: without them those tests skip with their reason.
    if [ $can_install = 1 ] && ! command -v sbatch >/dev/null 2>&1; then
        local slurm
        slurm=$(package_name "$pm" slurm)
        if [ -n "$slurm" ]; then
            say "installing $slurm for gpulab slurm's tests ($pm)"
            # shellcheck disable=SC2086  # the names are separate words
            install_packages "$pm" "$prefix" $slurm 2>/dev/null \
                || say "Slurm did not install ($pm): gpulab slurm's tests will be skipped"
        fi
    fi

    if ! command -v "$py" >/dev/null 2>&1; then
        echo "make test: $py not found: install Python 3 ($(install_command "$pm" python3))" >&2
        return 1
    fi
    # A python that already has pytest: $py, the system's, or the kit's venv.
    local candidate
    for candidate in "$py" /usr/bin/python3 "$VENV/bin/python"; do
        if [ -x "$(command -v "$candidate")" ] && has_pytest "$candidate"; then
            ensure_xdist "$(command -v "$candidate")"; command -v "$candidate"; return 0
        fi
    done

    # The distribution's pytest, where there is one. It belongs to the system's
    # python3, which need not be $py (pyenv, conda): use whichever has it.
    local p
    p=$(package_name "$pm" pytest)
    if [ $can_install = 1 ] && [ -n "$p" ]; then
        install_packages "$pm" "$prefix" "$p" || say "the distribution's pytest did not install; trying a virtual environment"
        for candidate in "$py" /usr/bin/python3; do
            if has_pytest "$candidate"; then
                ensure_xdist "$(command -v "$candidate")"; command -v "$candidate"; return 0
            fi
        done
    fi
    local venv
    if venv=$(venv_python "$py"); then ensure_xdist "$venv"; echo "$venv"; return 0; fi
    echo "make test: pytest is missing and could not be installed: run '$(install_command "$pm" "${p:-python3-pytest}")' or '$py -m pip install pytest', then make test again" >&2
    return 1
}

case "${1:-}" in
    build) deps_build ;;
    test) deps_test ;;
    *) echo "usage: grader/install-deps.sh build|test" >&2; exit 2 ;;
esac
