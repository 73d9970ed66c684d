# libarchive is loaded only when a perf archive is read (archive_lib.h): a
# libarchive.so.13 without its functions gives a warning naming what is
# missing (the fold goes on without the archive, as with a damaged one),
# not a crash; a recording without an archive folds as ever.
export HOME=/nonexistent
cp "$TESTDATA/perf-data/archive-fp/perf.data" "$TESTDATA/perf-data/archive-fp/perf.data.tar.bz2" .
mkdir empty lib
echo 'int not_libarchive;' | cc -shared -fPIC -x c - -o lib/libarchive.so.13
LD_LIBRARY_PATH=$PWD/lib $TOOL --symfs empty perf.data
echo "exit $?"
rm perf.data.tar.bz2
LD_LIBRARY_PATH=$PWD/lib $TOOL -q --symfs empty perf.data | head -c 0
echo "without the archive: exit ${PIPESTATUS[0]}"
