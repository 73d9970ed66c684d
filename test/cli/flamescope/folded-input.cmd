# Folded stacks have no times.
printf 'app;main 3\n' | "$TOOL" -o page.html
echo "exit $?"
