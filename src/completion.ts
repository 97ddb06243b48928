/**
 * Shell completion scripts for bash and zsh, made from a description of the command tree (which
 * cli.ts takes from commander), so that they list exactly the subcommands and options there are.
 */

interface OptionSpec {
  /** Every spelling: `--run-dir`, `-c`. */
  names: string[];
  description: string;
  /** True when the option takes a value. */
  takesValue: boolean;
  /** The values it accepts, when there is a fixed list. */
  choices?: string[];
}

export interface CommandSpec {
  name: string;
  description: string;
  options: OptionSpec[];
  /** What the first argument is: a result id, one of fixed words, a command to run, or anything. */
  argument?:
    | { kind: 'id' }
    | { kind: 'choices'; name: string; values: string[] }
    | { kind: 'command' }
    | { kind: 'any' };
}

export interface ProgramSpec {
  name: string;
  options: OptionSpec[];
  commands: CommandSpec[];
  /** The command that runs when none is named (its options work at the top level too). */
  defaultCommand?: string;
}

const COMPLETION_SHELLS = ['bash', 'zsh'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
const RESULTS_DIR = '"${CTXWRAP_RUN_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/ctxwrap}/tool_results"';

export function completionScript(shell: CompletionShell, spec: ProgramSpec): string {
  return shell === 'bash' ? bashScript(spec) : zshScript(spec);
}

const words = (list: string[]) => list.join(' ');

/** The options that work before any command name: the program's and its default command's. */
function topOptions(spec: ProgramSpec): OptionSpec[] {
  const fallback = spec.commands.find((c) => c.name === spec.defaultCommand)?.options ?? [];
  const seen = new Set(spec.options.flatMap((o) => o.names));
  return [...spec.options, ...fallback.filter((o) => !o.names.some((n) => seen.has(n)))];
}
const valueOptions = (options: OptionSpec[]) => options.filter((o) => o.takesValue).flatMap((o) => o.names);
/** The value-taking options other than --run-dir and those with choices, as one `a|b` pattern (or none). */
const others = (options: OptionSpec[]) => {
  const names = options
    .filter((o) => o.takesValue && !o.choices && !o.names.includes('--run-dir'))
    .flatMap((o) => o.names);
  return names.length > 0 ? [names.join('|')] : [];
};

function bashScript(spec: ProgramSpec): string {
  const fn = `_${spec.name.replace(/\W/g, '_')}`;
  const top = topOptions(spec);
  const globalNames = top.flatMap((o) => o.names);
  const cases = spec.commands.map((c) => {
    const opts = c.options.flatMap((o) => o.names);
    const choices = c.options
      .filter((o) => o.choices)
      .map(
        (o) =>
          `        ${o.names.join('|')}) COMPREPLY=($(compgen -W "${words(o.choices ?? [])}" -- "$cur")); return ;;`,
      );
    const arg =
      c.argument?.kind === 'id'
        ? `${fn}_complete_ids "$cur"`
        : c.argument?.kind === 'choices'
          ? `COMPREPLY=($(compgen -W "${words(c.argument.values)}" -- "$cur"))`
          : c.argument?.kind === 'command'
            ? 'COMPREPLY=($(compgen -c -- "$cur"))'
            : 'return';
    return [
      `    ${c.name})`,
      '      case "$prev" in',
      ...choices,
      '        --run-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;',
      ...others(c.options).map((names) => `        ${names}) return ;;`),
      '      esac',
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${words(opts)}" -- "$cur")); else ${arg}; fi`,
      '      ;;',
    ].join('\n');
  });
  return `# ${spec.name} completion for bash. Load it with: eval "$(${spec.name} completion bash)" (e.g. in ~/.bashrc)
${fn}_ids() {
  local f dir=${RESULTS_DIR} i
  for ((i = 1; i < \${#COMP_WORDS[@]} - 1; i++)); do
    if [[ "\${COMP_WORDS[i]}" == --run-dir ]]; then dir="\${COMP_WORDS[i+1]}/tool_results"; fi
  done
  for f in "$dir"/*.json; do
    [ -e "$f" ] || continue
    f="\${f##*/}"
    case "$f" in *.fp.json | *[!A-Za-z0-9._-]*) continue ;; esac
    printf '%s\\n' "\${f%.json}"
  done
}

# Ids starting with $1, matched here rather than by compgen -W, which would expand $(...) in them.
${fn}_complete_ids() {
  local id
  COMPREPLY=()
  while IFS= read -r id; do
    [[ "$id" == "$1"* ]] && COMPREPLY+=("$id")
  done < <(${fn}_ids)
}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" sub="" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      --) sub=--; break ;;
      ${valueOptions(top).join('|') || '--run-dir'}) ((i++)) ;;
      -*) ;;
      *) sub="$w"; break ;;
    esac
  done
  case "$sub" in
    --)
      if [[ "\${COMP_WORDS[COMP_CWORD-1]}" == -- ]]; then COMPREPLY=($(compgen -c -- "$cur")); fi
      ;;
    "")
      if [[ "$prev" == --run-dir ]]; then COMPREPLY=($(compgen -d -- "$cur")); return; fi
      COMPREPLY=($(compgen -W "${words([...spec.commands.map((c) => c.name), ...globalNames])}" -- "$cur"))
      ;;
${cases.join('\n')}
  esac
}
complete -o default -o bashdefault -F ${fn} ${spec.name}
`;
}

/** Quotes text for a zsh single-quoted `_arguments` spec: `[`, `]` and `:` escaped. */
function zq(text: string): string {
  return text.replace(/'/g, `'\\''`).replace(/([[\]:])/g, '\\$1');
}

function zshSpec(o: OptionSpec): string {
  const desc = `[${zq(o.description)}]`;
  const value = !o.takesValue
    ? ''
    : o.choices
      ? `:${zq(o.names[0]?.replace(/^-+/, '') ?? 'value')}:(${o.choices.join(' ')})`
      : o.names.includes('--run-dir')
        ? ':dir:_directories'
        : `:${zq(o.names[o.names.length - 1]?.replace(/^-+/, '') ?? 'value')}: `;
  if (o.names.length === 1) return `'${o.names[0]}${desc}${value}'`;
  return `'(${o.names.join(' ')})'{${o.names.join(',')}}'${desc}${value}'`;
}

function zshScript(spec: ProgramSpec): string {
  const fn = `_${spec.name.replace(/\W/g, '_')}`;
  const describe = spec.commands.map((c) => `    '${c.name}:${c.description.replace(/'/g, `'\\''`)}'`);
  const cases = spec.commands.map((c) => {
    const arg =
      c.argument?.kind === 'id'
        ? `'1:result id:${fn}_ids'`
        : c.argument?.kind === 'choices'
          ? `'1:${c.argument.name}:(${c.argument.values.join(' ')})'`
          : c.argument?.kind === 'command'
            ? "'*::command:_normal'"
            : c.argument?.kind === 'any'
              ? "'*:argument:_files'"
              : '';
    const specs = [...c.options.map(zshSpec), arg].filter((x) => x !== '');
    return [`        ${c.name})`, `          _arguments -s ${specs.join(' ')}`, '          ;;'].join('\n');
  });
  return `#compdef ${spec.name}
# ${spec.name} completion for zsh. Load it with: eval "$(${spec.name} completion zsh)" (e.g. in ~/.zshrc, after compinit),
# or save it as _${spec.name} in a directory of $fpath.
${fn}_ids() {
  local -a ids words_
  local dir=${RESULTS_DIR} i
  words_=(\${(z)BUFFER})
  for ((i = 1; i < \${#words_}; i++)); do
    [[ "\${words_[i]}" == --run-dir ]] && dir="\${(Q)words_[i+1]}/tool_results"
  done
  ids=("$dir"/*.json(N:t:r))
  ids=(\${ids:#*.fp})
  _describe 'result id' ids
}

${fn}() {
  local curcontext="$curcontext" state line
  typeset -A opt_args
  local -a commands
  commands=(
${describe.join('\n')}
  )
  _arguments -C ${topOptions(spec).map(zshSpec).join(' ')} '1: :->command' '*:: :->args'
  case $state in
    command)
      _describe 'command' commands
      ;;
    args)
      case $line[1] in
${cases.join('\n')}
      esac
      ;;
  esac
}

if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${spec.name}
fi
`;
}
