#!/usr/bin/env python3
"""The stages of src/ depend only downwards.

src/meson.build lists, in `stage_order`, each stage folder and the stages it
may use. This test reads every #include line under src/ and fails when a file
includes a header of a stage that is not its own and not listed for it, when a
stage's static_library declares a dependency that is not listed, when a
header private to a stage (perfdata/perf_abi.h) is included elsewhere, or when
a public header in include/flamefold/ includes anything but standard headers
and its siblings, or when src/ holds more than two files of its own. The tools (src/tools/) may use every stage.
It also fails when a .cc under src/perfdata/ is longer than MAX_CC_LINES
lines.

Usage: layering_test.py SOURCE_ROOT
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
PRIVATE = {'perfdata/perf_abi.h': 'perfdata'}
GENERATED = {'flamefold_config.h', 'flamegraph_viewer_js.h',
             'flamegraph_scope_js.h'}
# A .cc of the perf.data replay holds one concern: past this many lines it
# holds more, and is to be split.
SIZE_CHECKED = ['perfdata']
MAX_CC_LINES = 700


def stage_order(root):
    """{stage: set of stages it may use}, from src/meson.build."""
    text = open(os.path.join(root, 'src', 'meson.build')).read()
    block = re.search(r'stage_order\s*=\s*\{(.*?)\n\}', text, re.S)
    if not block:
        sys.exit('layering: no stage_order in src/meson.build')
    order = {}
    for name, deps in re.findall(r"'(\w+)'\s*:\s*\[([^\]]*)\]", block.group(1)):
        order[name] = set(re.findall(r"'(\w+)'", deps))
    return order


def check_includes(root, order):
    errors = []
    src = os.path.join(root, 'src')
    for stage in sorted(os.listdir(src)):
        folder = os.path.join(src, stage)
        if not os.path.isdir(folder):
            continue
        if stage != 'tools' and stage not in order:
            errors.append(f'src/{stage}/: a folder that is not a stage of stage_order')
            continue
        allowed = set(order) if stage == 'tools' else order[stage] | {stage}
        for name in sorted(os.listdir(folder)):
            if not name.endswith(('.h', '.cc')):
                continue
            path = f'src/{stage}/{name}'
            text = open(os.path.join(folder, name), errors='replace').read()
            for header in INCLUDE.findall(text):
                if header in GENERATED:
                    continue
                used = header.split('/')[0] if '/' in header else None
                if used is None:
                    errors.append(f'{path}: includes "{header}", not by stage')
                elif header in PRIVATE and PRIVATE[header] != stage:
                    errors.append(f'{path}: includes "{header}", private to '
                                  f'{PRIVATE[header]}')
                elif used == 'flamefold' and stage == 'tools':
                    continue
                elif used not in allowed:
                    errors.append(f'{path}: includes "{header}": {stage} may use '
                                  f'only {", ".join(sorted(allowed)) or "itself"}')
    return errors


def check_meson_deps(root, order):
    """Each stage's library links only the stages listed for it."""
    errors = []
    for stage, deps in order.items():
        build = os.path.join(root, 'src', stage, 'meson.build')
        if not os.path.exists(build):
            errors.append(f'src/{stage}/meson.build: missing')
            continue
        text = open(build).read()
        for dep in re.findall(r'\b(\w+)_dep\b', text):
            if dep in order and dep != stage and dep not in deps:
                errors.append(f'src/{stage}/meson.build: uses {dep}_dep, not '
                              f'listed for {stage}')
    return errors


def check_public(root):
    """include/flamefold/ holds the API: standard headers and siblings only."""
    errors = []
    folder = os.path.join(root, 'include', 'flamefold')
    if not os.path.isdir(folder):
        return errors
    headers = sorted(os.listdir(folder))
    for name in headers:
        text = open(os.path.join(folder, name), errors='replace').read()
        for header in INCLUDE.findall(text):
            if not (header.startswith('flamefold/') and
                    header.split('/', 1)[1] in headers):
                errors.append(f'include/flamefold/{name}: includes "{header}"')
    return errors


def check_root(root):
    """src/ holds the stage folders and at most two files of its own."""
    src = os.path.join(root, 'src')
    files = sorted(f for f in os.listdir(src)
                   if os.path.isfile(os.path.join(src, f)))
    if len(files) > 2:
        return [f'src/ holds {len(files)} files of its own ({", ".join(files)}); '
                'at most two (meson.build and the API) belong there']
    return []


def check_sizes(root):
    """No .cc of SIZE_CHECKED is longer than MAX_CC_LINES."""
    errors = []
    for stage in SIZE_CHECKED:
        folder = os.path.join(root, 'src', stage)
        for name in sorted(os.listdir(folder)):
            path = f'src/{stage}/{name}'
            if not name.endswith('.cc'):
                continue
            with open(os.path.join(folder, name), errors='replace') as f:
                lines = sum(1 for _ in f)
            if lines > MAX_CC_LINES:
                errors.append(f'{path}: {lines} lines, more than '
                              f'{MAX_CC_LINES}: split it by concern')
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    order = stage_order(root)
    errors = (check_includes(root, order) + check_meson_deps(root, order) +
              check_public(root) + check_root(root) + check_sizes(root))
    for e in errors:
        print('layering: ' + e)
    files = sum(len(f) for _, _, f in os.walk(os.path.join(root, 'src')))
    print(f'layering: {len(order)} stages, {files} files, {len(errors)} problems')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
