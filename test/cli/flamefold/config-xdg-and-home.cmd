# The file is $XDG_CONFIG_HOME/flamefold/config; without XDG_CONFIG_HOME
# (or with a relative one, which XDG says to ignore) it is
# $HOME/.config/flamefold/config; no file there means no settings.
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\n' > in.txt
mkdir -p home/.config/flamefold xdg/flamefold
printf '[flamefold]\npid = 1\n' > home/.config/flamefold/config
printf '[flamefold]\ntid = 1\n' > xdg/flamefold/config
XDG_CONFIG_HOME=$PWD/xdg HOME=$PWD/home $TOOL in.txt
env -u XDG_CONFIG_HOME HOME="$PWD/home" $TOOL in.txt
XDG_CONFIG_HOME=xdg HOME=$PWD/home $TOOL in.txt
XDG_CONFIG_HOME=$PWD/empty HOME=$PWD/home $TOOL in.txt
env -u XDG_CONFIG_HOME -u HOME $TOOL in.txt
