#!/usr/bin/env python3
"""Turns gitleaks' rule set (config/gitleaks.toml, MIT licence) into src/gitleaks-rules.ts.

Usage: python3 scripts/gitleaks-rules.py <gitleaks.toml> <commit> > src/gitleaks-rules.ts

Get the toml from a checkout of https://github.com/gitleaks/gitleaks at <commit>
(`git show <commit>:config/gitleaks.toml`). Python 3.11+ (tomllib); no other dependency.

Each rule's RE2 regex becomes a JavaScript one without flags: the case-insensitive parts
(`(?i)`, `(?i:...)`, `(?-i:...)`, scoped to their group as in RE2) are spelt out as `[aA]`,
`(?s:.)` as `[\\s\\S]`, `[[:alnum:]]` as `A-Za-z0-9`, `\\z` as `$`, `(?P<n>` as `(?<n>`.
Rules are dropped when they cannot work line by line on a tool's output or would mask too
much (listed in SKIP with the reason); the generated file lists them too.
"""
import json
import sys
import tomllib

SKIP = {
    'generic-api-key': 'any key=value: redact.ts has its own generic rules, judged by randomness',
    'curl-auth-header': 'spans lines; the command-line rules mask curl -H and -u',
    'curl-auth-user': 'spans lines; the command-line rules mask curl -H and -u',
    'kubernetes-secret-yaml': 'spans lines ((?s) over 200 characters)',
}


def flip(ch):
    return ch.swapcase() if ch.isascii() and ch.isalpha() else ch


def translate(rx):
    """RE2 to JavaScript (no flags), case-insensitivity and dot-all spelt out per group."""
    out = []
    stack = []  # (ci, dotall) to restore at each ')'
    ci = False
    dotall = False
    i = 0
    n = len(rx)
    while i < n:
        c = rx[i]
        if c == '\\':
            nxt = rx[i + 1]
            if nxt == 'z':
                out.append('$')
            elif nxt == 'A':
                out.append('^')
            elif nxt == 'Q':
                raise ValueError('\\Q')
            else:
                out.append(rx[i:i + 2])
            i += 2
            continue
        if c == '[':
            j = i + 1
            body = []
            if j < n and rx[j] == '^':
                body.append('^')
                j += 1
            first = True
            while j < n and (rx[j] != ']' or first):
                first = False
                if rx.startswith('[:', j):
                    end = rx.index(':]', j)
                    name = rx[j + 2:end]
                    body.append({'alnum': 'A-Za-z0-9', 'alpha': 'A-Za-z', 'digit': '0-9',
                                 'xdigit': '0-9A-Fa-f', 'upper': 'A-Z', 'lower': 'a-z',
                                 'space': r'\s', 'word': r'\w'}[name])
                    j = end + 2
                    continue
                if rx[j] == '\\':
                    body.append(rx[j:j + 2])
                    j += 2
                    continue
                if j + 2 < n and rx[j + 1] == '-' and rx[j + 2] != ']':
                    lo, hi = rx[j], rx[j + 2]
                    body.append(f'{lo}-{hi}')
                    if ci and lo.isalpha() and hi.isalpha() and lo.isascii() and hi.isascii():
                        body.append(f'{flip(lo)}-{flip(hi)}')
                    j += 3
                    continue
                ch = rx[j]
                body.append('\\[' if ch == '[' else ch)
                if ci and flip(ch) != ch:
                    body.append(flip(ch))
                j += 1
            out.append('[' + ''.join(body) + ']')
            i = j + 1
            continue
        if c == '(':
            if rx.startswith('(?P<', i):
                stack.append((ci, dotall))
                out.append('(?<')
                i += 4
                continue
            if rx.startswith('(?', i) and i + 2 < n and rx[i + 2] not in ':<=!':
                # Flags: (?i) (?-i) (?s) (?i:  (?-i:  (?s:
                j = i + 2
                while rx[j] not in ':)':
                    j += 1
                flags = rx[i + 2:j]
                on, _, off = flags.partition('-')
                nci = (ci or 'i' in on) and 'i' not in off
                nds = (dotall or 's' in on) and 's' not in off
                if set(flags) - set('is-'):
                    raise ValueError(f'flags {flags}')
                if rx[j] == ')':  # to the end of the enclosing group
                    ci, dotall = nci, nds
                    i = j + 1
                    continue
                stack.append((ci, dotall))
                ci, dotall = nci, nds
                out.append('(?:')
                i = j + 1
                continue
            stack.append((ci, dotall))
            if rx.startswith('(?:', i):
                out.append('(?:')
                i += 3
            else:
                out.append('(')
                i += 1
            continue
        if c == ')':
            ci, dotall = stack.pop()
            out.append(')')
            i += 1
            continue
        if c == '.' and dotall:
            out.append(r'[\s\S]')
            i += 1
            continue
        if ci and flip(c) != c:
            out.append(f'[{c}{flip(c)}]')
            i += 1
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def main():
    path, commit = sys.argv[1], sys.argv[2]
    with open(path, 'rb') as f:
        config = tomllib.load(f)
    rows = []
    skipped = []
    for rule in config['rules']:
        rid = rule['id']
        if rid in SKIP:
            skipped.append((rid, SKIP[rid]))
            continue
        if 'regex' not in rule or not rule.get('keywords'):
            skipped.append((rid, 'no regex or no keywords (a rule on file paths)'))
            continue
        try:
            source = translate(rule['regex'])
        except (ValueError, KeyError, IndexError) as e:
            skipped.append((rid, f'regex not translated ({e})'))
            continue
        row = {'id': rid, 're': source, 'keywords': sorted({k.lower() for k in rule['keywords']})}
        if rule.get('secretGroup'):
            row['group'] = rule['secretGroup']
        if rule.get('entropy'):
            row['entropy'] = rule['entropy']
        rows.append(row)
    w = sys.stdout.write
    w('// GENERATED by scripts/gitleaks-rules.py: do not edit. Regenerate from a newer gitleaks.\n')
    w('// Source: https://github.com/gitleaks/gitleaks config/gitleaks.toml at commit\n')
    w(f'// {commit}. MIT License, Copyright (c) 2019 Zachary Rice (the rules are his project\'s).\n')
    w('// Rules left out:\n')
    for rid, why in skipped:
        w(f'//   {rid}: {why}\n')
    w('\n/** One gitleaks rule: `re` (JavaScript source, no flags), its secret group, its keywords. */\n')
    w('export interface GitleaksRule {\n  id: string;\n  re: string;\n  keywords: readonly string[];\n')
    w('  /** The group holding the secret (default: the first group that matched, else all). */\n')
    w('  group?: number;\n  /** Least Shannon entropy (bits per character) of the secret. */\n  entropy?: number;\n}\n\n')
    w(f"export const GITLEAKS_COMMIT = '{commit}';\n\n")
    w('export const GITLEAKS_RULES: readonly GitleaksRule[] = [\n')
    for row in rows:
        w(f'  {json.dumps(row, ensure_ascii=True)},\n')
    w('];\n')


main()
