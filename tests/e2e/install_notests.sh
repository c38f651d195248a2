#!/usr/bin/env bash
# The product without its tests: `meson setup -Dtests=disabled
# -Dcuda=disabled` configures, builds and installs (meson install
# --destdir) the module, pvaultd, pvault and p11bench; the installed pvault
# finds the installed p11bench and module (in the staging tree: it looks
# beside itself before the configured prefix, which does not exist here)
# and measures the token and OpenSSL.
# Arguments: MODULE BUILD_DIR SOURCE_DIR.  The build directory is
# BUILD_DIR-notests, kept between runs (a rebuild is incremental, and at
# the main build's depth ccache serves a first build).
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(readlink -f "${3:?usage: $0 MODULE BUILD_DIR SOURCE_DIR}")
NT=$(readlink -f "$BUILD_DIR")-notests
PREFIX=/opt/pixelvault-notests-check   # never installed: only DESTDIR has it
DEST=$E2E_TMP/dest
export NT SRC PREFIX DEST
unset PIXELVAULT_CONF PIXELVAULT_BACKEND   # pvault bench makes its own token

# a build directory of this source tree is reconfigured, anything else
# there is replaced
ok "meson setup -Dtests=disabled -Dcuda=disabled ($NT)" bash -c '
  opts=(-Dtests=disabled -Dcuda=disabled -Dprefix="$PREFIX")
  if [ -f "$NT/build.ninja" ] && [ "$(cat "$NT/.pv-source" 2>/dev/null)" = "$SRC" ] &&
     meson configure "$NT" "${opts[@]}"; then
    exit 0
  fi
  rm -rf "$NT" && meson setup "$NT" "$SRC" "${opts[@]}" && echo "$SRC" > "$NT/.pv-source"'
ok "it builds" ninja -C "$NT"
ok "no test program was configured" bash -c \
  '[ ! -e "$NT/tests" ] && meson introspect "$NT" --tests | grep -qx "\[\]"'
ok "meson install --destdir" meson install -C "$NT" --destdir "$DEST" --quiet
P=$DEST$PREFIX
export P
ok "installed: pvault, pvaultd, p11bench, the module" bash -c \
  '[ -x "$P/bin/pvault" ] && [ -x "$P/sbin/pvaultd" ] && [ -x "$P/libexec/pixelvault/p11bench" ] &&
   find "$P" -path "*/pkcs11/pixelvault-pkcs11.so" | grep -q .'
ok "nothing installed links CUnit" bash -c \
  '! ldd "$P/bin/pvault" "$P/libexec/pixelvault/p11bench" | grep -qi cunit'
ok "the configured prefix does not exist (the staging tree is all there is)" \
  test ! -e "$PREFIX"
ok "pvault --help lists bench" bash -c '"$P/bin/pvault" --help | grep -Eq "^  +bench +measure"'
ok "pvault bench --help" bash -c '"$P/bin/pvault" bench --help | grep -q "^usage: pvault bench"'
# the smallest real run: one mechanism, one thread, 0.25 s, the token and
# OpenSSL rows (every output checked by p11bench)
ok "the installed pvault bench measures the token and OpenSSL" bash -c \
  'cd "$E2E_TMP" && PIXELVAULT_BACKEND=cpu "$P/bin/pvault" bench --quick --threads 1 \
     --mech sha256-4k --openssl-threads 1 >"$E2E_TMP/bench.out" 2>&1; rc=$?
   cat "$E2E_TMP/bench.out"; [ $rc -eq 0 ] &&
   grep -q "^p11bench: token .*(backend cpu)" "$E2E_TMP/bench.out" &&
   grep -Eq "^\| sha256-4k +\| token +\| +1 \| +[0-9]+ \|" "$E2E_TMP/bench.out" &&
   grep -Eq "^\| sha256-4k +\| openssl +\| +1 \| +[0-9]+ \|" "$E2E_TMP/bench.out"'
ok "without p11bench: exit 1 and a message that says to install again" bash -c \
  'rm "$P/libexec/pixelvault/p11bench" &&
   "$P/bin/pvault" bench --quick >/dev/null 2>"$E2E_TMP/e"; rc=$?; cat "$E2E_TMP/e"
   [ $rc -eq 1 ] && grep -q "p11bench not found.*install PixelVault again" "$E2E_TMP/e"'
done_testing
