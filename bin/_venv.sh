# shellcheck shell=bash
# Sourced by bin/run and bin/test (from the repository root): make sure .venv exists and
# holds the project, installed with the pinned versions of constraints.txt.

tnc_python_ok() {
    "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1
}

tnc_pick_python() {
    local candidate
    for candidate in python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 && tnc_python_ok "$candidate"; then
            echo "$candidate"
            return 0
        fi
    done
    echo "error: Python 3.11 or newer is needed (as python3.11 or python3)" >&2
    return 1
}

# tnc_ensure_venv SPEC: SPEC is what pip installs in editable mode: "." or ".[test]".
tnc_ensure_venv() {
    local spec=$1 python
    if [[ -e .venv ]] && ! tnc_python_ok .venv/bin/python; then
        echo "venv: .venv has no working Python >= 3.11; recreating it"
        rm -rf .venv
    fi
    if [[ ! -e .venv ]]; then
        python=$(tnc_pick_python)
        "$python" -m venv .venv
        echo "venv: created .venv with $("$python" --version)"
    fi
    # --no-compile: Python compiles what it imports when it first imports it; compiling every
    # installed package up front took a third of the install's time.
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-compile \
        -c constraints.txt -e "$spec"
    echo "venv: installed -e '$spec' into .venv, pinned by constraints.txt"
}

# tnc_compile_messages: compile the translation catalogues (locale/*/LC_MESSAGES/django.po) into
# the .mo files Django reads. They are build output (not committed); compilemessages skips a
# catalogue whose .mo is already newer. Needs GNU gettext's msgfmt.
tnc_compile_messages() {
    if ! command -v msgfmt >/dev/null 2>&1; then
        echo "error: msgfmt (GNU gettext) is needed to compile the translations (locale/):" >&2
        echo "       Debian/Ubuntu: apt-get install gettext; macOS: brew install gettext" >&2
        return 1
    fi
    # Only the project's catalogues: not the virtualenv's packages (nor var/).
    .venv/bin/python manage.py compilemessages --ignore=.venv --ignore=var --verbosity 0
    echo "compilemessages: translations (locale/) are compiled"
}
