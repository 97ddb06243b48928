/**
 * What `--tee` writes to the terminal: the output as it arrives, with nothing in it that a
 * terminal acts on beyond a newline, a tab and a carriage return. Escape sequences are dropped
 * (OSC 52 writing the clipboard, CSI 2J clearing the screen, a title, DCS), other control
 * characters and the bidi and line-separator characters are shown as the summary shows them
 * (`^G`, `<U+202E>`); colours (SGR, `ESC [ ... m`) are kept only for a terminal. The stored file
 * keeps every byte. A sequence split between two chunks is still caught: the escaper is a small
 * state machine that carries its state from one chunk to the next, holding at most a short CSI.
 */
import { StringDecoder } from 'node:string_decoder';
import { visible } from './controls.js';

export interface TeeEscapeOptions {
  /** Keep SGR colour sequences (stderr is a terminal that shows colour). */
  color: boolean;
}

type State = 'text' | 'esc' | 'csi' | 'string' | 'string-esc';

/** Characters in text that need a look: controls, C1, line separators, bidi marks. */
const SPECIAL =
  /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** A CSI longer than this is not a colour: it is dropped without waiting for its end. */
const MAX_CSI = 64;
/** A string sequence (OSC, DCS) with no end this far in: the rest is shown, not swallowed. */
const MAX_STRING = 8192;

export class TeeEscaper {
  private readonly decoder = new StringDecoder('utf8');
  private state: State = 'text';
  /** The CSI read so far (kept to emit it whole if it is a colour). */
  private csi = '';
  /** In a string sequence (OSC, DCS, SOS, PM, APC): whether BEL ends it (OSC only). */
  private belEnds = false;
  /** Characters of the string sequence dropped so far. */
  private dropped = 0;

  constructor(private readonly opts: TeeEscapeOptions) {}

  /** The text to write for the next chunk of output. */
  push(chunk: Buffer): string {
    return this.feed(this.decoder.write(chunk));
  }

  /** The text left at the end of the output (an unfinished sequence is dropped). */
  end(): string {
    const rest = this.feed(this.decoder.end());
    this.state = 'text';
    this.csi = '';
    return rest;
  }

  private feed(text: string): string {
    let out = '';
    let i = 0;
    while (i < text.length) {
      if (this.state === 'text') {
        SPECIAL.lastIndex = i;
        const m = SPECIAL.exec(text);
        const stop = m ? m.index : text.length;
        out += text.slice(i, stop);
        if (!m) break;
        i = stop + 1;
        const ch = m[0];
        if (ch === '\x1b') this.state = 'esc';
        else if (ch === '\x9b') this.startCsi('\x1b[');
        else out += visible(ch);
        continue;
      }
      out += this.step(text[i] as string);
      i++;
    }
    return out;
  }

  /** One character inside a sequence; returns what to write (a colour, when it ends one). */
  private step(ch: string): string {
    const code = ch.charCodeAt(0);
    switch (this.state) {
      case 'esc':
        if (ch === '[') this.startCsi('\x1b[');
        else if (ch === ']') this.startString(true);
        else if (ch === 'P' || ch === 'X' || ch === '^' || ch === '_') this.startString(false);
        // Intermediates (ESC ( B, ESC # 8) stay in the escape; a final ends it.
        else if (code >= 0x20 && code <= 0x2f) this.state = 'esc';
        else if (code >= 0x30 && code <= 0x7e) this.state = 'text';
        else return this.abort(ch);
        return '';
      case 'csi':
        if (code >= 0x20 && code <= 0x3f) {
          this.csi += ch;
          if (this.csi.length > MAX_CSI) this.state = 'text';
          return '';
        }
        if (code >= 0x40 && code <= 0x7e) {
          this.state = 'text';
          const seq = this.csi + ch;
          return this.opts.color && ch === 'm' && /^\x1b\[[0-9;:]*m$/.test(seq) ? seq : '';
        }
        return this.abort(ch);
      case 'string':
        if (ch === '\x07' && this.belEnds) this.state = 'text';
        else if (ch === '\x1b') this.state = 'string-esc';
        else if (++this.dropped > MAX_STRING) return this.abort(ch);
        return '';
      default:
        // string-esc: ESC \ ends the string; any other ESC starts a new sequence.
        if (ch === '\\') {
          this.state = 'text';
          return '';
        }
        this.state = 'esc';
        return this.step(ch);
    }
  }

  private startCsi(intro: string): void {
    this.state = 'csi';
    this.csi = intro;
  }

  private startString(belEnds: boolean): void {
    this.state = 'string';
    this.belEnds = belEnds;
    this.dropped = 0;
  }

  /** A control character inside an escape ends it (dropped) and is shown as in text. */
  private abort(ch: string): string {
    this.state = 'text';
    return this.feed(ch);
  }
}
