# A line of the configuration file that is wrong is a usage error (exit 2)
# naming the file and the line: an unknown option, a line that is neither
# an option, a section nor a comment, a setting outside any tool's section,
# a section of no tool, an option that means nothing in a file, a value the
# option refuses.
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\n' > in.txt
bad() {
  printf "$1" > bad.conf
  $TOOL --config bad.conf in.txt; echo "exit $?"
}
bad '# comment\n[flamefold]\npid = 1\ncolours = java\n'
bad '[flamesvg]\ncolours = java\n[flamefold]\nmodern\n'
bad 'modern = 1\n[flamefold]\n'
bad '[flamefolds]\nmodern = 1\n'
bad '[flamefold]\nhelp = true\n'
bad '[flamefold]\nno-config = 1\n'
bad '[flamefold]\n\nmax-stack-depth = deep\n'
bad '[flamefold]\nmodern = maybe\n'
bad '[flamefold]\no = out.txt\n'
bad '[flamefold]\nmax-stack-depth = 0\n'
