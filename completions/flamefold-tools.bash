# bash completion for flamefold, flamesvg, flamediff, flamereport, flamescope,
# flamebatch and flamerecord: options are read from the tool's own --help, so they stay
# in step with it (--config FILE, --no-config among them); files are
# completed otherwise.
_flamefold_tools() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=${COMP_WORDS[COMP_CWORD-1]}
  case "$prev" in
    --colors|--color)
      COMPREPLY=($(compgen -W "hot mem io wakeup chain java js perl red green blue aqua yellow purple orange" -- "$cur"))
      return ;;
    --bgcolors)
      COMPREPLY=($(compgen -W "yellow blue green grey" -- "$cur")); return ;;
    --call-graph)
      COMPREPLY=($(compgen -W "fp dwarf lbr" -- "$cur")); return ;;
    --format)
      local formats="text csv json"  # flamereport's
      [ "${COMP_WORDS[0]##*/}" = flamefold ] && formats="folded speedscope d3 pprof"
      COMPREPLY=($(compgen -W "$formats" -- "$cur")); return ;;
    --user)
      COMPREPLY=($(compgen -u -- "$cur")); return ;;
    --include|--exclude|--focus|--ignore|--hide|--show-from|--skip-after|--prune-from|--weight)
      COMPREPLY=(); return ;;  # a pattern or a name: nothing to offer
    --time-range)
      COMPREPLY=(); return ;;  # times or percent slices: nothing to offer
    --off-cpu-unit)
      COMPREPLY=($(compgen -W "ns us ms" -- "$cur")); return ;;
    --off-cpu-state|--off-cpu-min-us)
      COMPREPLY=(); return ;;  # letters (S,D) or a number: nothing to offer
    -o|--output|--outdir|--symfs|--config)
      COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  if [[ "$cur" == -* ]]; then
    local opts
    opts=$("${COMP_WORDS[0]}" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _flamefold_tools flamefold flamesvg flamediff flamereport flamescope flamebatch \
  flamerecord \
  stackcollapse-perf flamegraph difffolded
