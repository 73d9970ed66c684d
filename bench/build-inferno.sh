#!/bin/bash
# build-inferno.sh INFERNO_SRC [OUT_DIR]: builds inferno (jonhoo/inferno, the Rust port of the
# FlameGraph scripts) for the benchmarks, without crates.io: its dependencies come from Debian's
# librust-*-dev packages (installed here with apt-get when missing) through a cargo directory
# source. INFERNO_SRC is a checkout of inferno at v0.11.14, the last release whose dependencies
# Debian 12 packages (clap 3, quick-xml 0.26, indexmap 1); it is copied, not changed.
# Two adjustments: ahash 0.7 for 0.8 (the same AHashMap) and num-format 0.4.0 for 0.4.3; and
# str_stack, which Debian does not package, is replaced by a small stand-in written below (the
# few calls inferno makes: push, write!, a writer, indexing, iteration).
# Prints the directory holding inferno-collapse-perf and inferno-flamegraph (OUT_DIR, default
# bench/out/inferno, where the benchmarks look for them) and a file "version".
set -eu
src=${1:?usage: build-inferno.sh INFERNO_SRC [OUT_DIR]}
HERE=$(cd "$(dirname "$0")" && pwd)
out=${2:-$HERE/out/inferno}
PATH=$PATH:$HOME/.cargo/bin  # where rustup installs cargo
command -v cargo > /dev/null || { echo "build-inferno: error: cargo is not installed" >&2; exit 1; }
grep -q '^version = "0.11.14"' "$src/Cargo.toml" ||
  echo "build-inferno: warning: $src is not inferno 0.11.14; its dependencies may not resolve" >&2

crates=(ahash atty clap-3 clap-derive-3 crossbeam-channel crossbeam-utils dashmap env-logger
        indexmap itoa log num-cpus num-format once-cell quick-xml rgb)
missing=()
for c in "${crates[@]}"; do
  dpkg -s "librust-$c-dev" > /dev/null 2>&1 || missing+=("librust-$c-dev")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get install -y -q "${missing[@]}" > /dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/inferno"
rm -rf "$work/inferno/target" "$work/inferno/Cargo.lock" "$work/inferno/.cargo"

mkdir -p "$work/str_stack/src"
cat > "$work/str_stack/Cargo.toml" <<'EOF'
[package]
name = "str_stack"
version = "0.1.0"
edition = "2018"
EOF
cat > "$work/str_stack/src/lib.rs" <<'EOF'
//! Strings appended to one buffer, each addressed by its index (what
//! inferno asks of the str_stack crate).
use std::fmt;
use std::ops::Index;

#[derive(Clone, Debug)]
pub struct StrStack {
    data: String,
    ends: Vec<usize>,
}

impl Default for StrStack {
    fn default() -> Self {
        Self::new()
    }
}

impl StrStack {
    pub fn new() -> Self {
        StrStack { data: String::new(), ends: vec![0] }
    }
    pub fn len(&self) -> usize {
        self.ends.len() - 1
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn push(&mut self, s: &str) -> usize {
        self.data.push_str(s);
        self.ends.push(self.data.len());
        self.len() - 1
    }
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> usize {
        let mut w = self.writer();
        let _ = fmt::Write::write_fmt(&mut w, args);
        w.finish()
    }
    pub fn writer(&mut self) -> Writer<'_> {
        Writer { stack: self }
    }
    pub fn clear(&mut self) {
        self.data.clear();
        self.ends.truncate(1);
    }
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(move |i| &self[i])
    }
}

impl Index<usize> for StrStack {
    type Output = str;
    fn index(&self, i: usize) -> &str {
        &self.data[self.ends[i]..self.ends[i + 1]]
    }
}

pub struct Writer<'a> {
    stack: &'a mut StrStack,
}

impl<'a> Writer<'a> {
    pub fn finish(self) -> usize {
        let s = self.stack;
        s.ends.push(s.data.len());
        s.len() - 1
    }
}

impl<'a> fmt::Write for Writer<'a> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.stack.data.push_str(s);
        Ok(())
    }
}
EOF

cd "$work/inferno"
# Dependencies as Debian packages them; no dev-dependencies or benches (criterion and the
# rest are not needed to build the tools).
python3 - <<'PY'
import re
text = open("Cargo.toml").read()
text = text.replace('ahash = "0.8"', 'ahash = "0.7"')
text = text.replace('num-format = { version = "0.4.3"', 'num-format = { version = "0.4"')
kept, skip = [], False
for line in text.split("\n"):
    if line.startswith("["):
        skip = line.strip() in ("[dev-dependencies]", "[[bench]]")
    if not skip:
        kept.append(line)
text = "\n".join(kept) + '\n[patch.crates-io]\nstr_stack = { path = "../str_stack" }\n'
open("Cargo.toml", "w").write(text)
PY
mkdir -p .cargo
cat > .cargo/config.toml <<'EOF'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
EOF
cargo build --release --offline --bins -q 2> "$work/cargo.log" ||
  { echo "build-inferno: error: cargo build failed:" >&2; tail -n 20 "$work/cargo.log" >&2; exit 1; }
mkdir -p "$out"
cp target/release/inferno-collapse-perf target/release/inferno-flamegraph "$out/"
# The tools of this release print no version; bench/run.sh reads it here.
sed -n 's/^version = "\(.*\)"/inferno \1/p' "$src/Cargo.toml" | head -n 1 > "$out/version"
echo "$out"
