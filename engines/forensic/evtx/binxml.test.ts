// Binary XML built byte by byte: every value type and array, substitutions, nested BinXml, references, and the caps.
import { describe, expect, it } from 'vitest';
import { clearLastValues, clearSharedDefinitions } from './binxml.js';
import { parseEvtx, type EvtxOptions } from './index.js';
import { eventOpen, evtx, FILETIME, le, record, utf16, W, type Body } from './binxml-writer.fixture.js';

const f32 = (v: number): number[] => [...new Uint8Array(new Float32Array([v]).buffer)];
const f64 = (v: number): number[] => [...new Uint8Array(new Float64Array([v]).buffer)];
function sid(text: string): number[] {
  const [, rev, auth, ...subs] = text.split('-');
  return [Number(rev), subs.length, ...le(BigInt(auth!), 6).reverse(), ...subs.flatMap((s) => le(BigInt(s), 4))];
}
const GUID = [0x25, 0x96, 0x84, 0x54, 0x78, 0x54, 0x94, 0x49, 0xa5, 0xba, 0x3e, 0x3b, 0x03, 0x28, 0xc3, 0x0d];

function parse(file: Uint8Array, options: EvtxOptions = {}): ReturnType<typeof parseEvtx> {
  return parseEvtx(file, { xml: true, ...options });
}

describe('BinXml value types', () => {
  const scalars: Array<[string, number, number[], unknown, string]> = [
    ['Int8', 0x03, [0xfb], -5, '-5'],
    ['UInt8', 0x04, [250], 250, '250'],
    ['Int16', 0x05, le(-300n, 2), -300, '-300'],
    ['UInt16', 0x06, le(65000n, 2), 65000, '65000'],
    ['Int32', 0x07, le(-70000n, 4), -70000, '-70000'],
    ['UInt32', 0x08, le(4000000000n, 4), 4000000000, '4000000000'],
    ['Int64', 0x09, le(-5000000000n, 8), -5000000000, '-5000000000'],
    ['UInt64', 0x0a, le(18446744073709551615n, 8), '18446744073709551615', '18446744073709551615'],
    ['Real32', 0x0b, f32(1.5), '1.5', '1.5'],
    ['Real64', 0x0c, f64(0.1), '0.1', '0.1'],
    ['Bool', 0x0d, le(1n, 4), true, 'true'],
    ['BoolOther', 0x0d, le(2n, 4), true, 'true'],
    ['Binary', 0x0e, [0xde, 0xad, 0xbe, 0xef], 'DEADBEEF', 'DEADBEEF'],
    ['Guid', 0x0f, GUID, '54849625-5478-4994-A5BA-3E3B0328C30D', '54849625-5478-4994-A5BA-3E3B0328C30D'],
    ['SizeT', 0x10, le(0x1234n, 8), '0x1234', '0x1234'],
    ['SizeT32', 0x10, le(0x10n, 4), '0x10', '0x10'],
    ['FileTime', 0x11, le(FILETIME, 8), '2016-07-08T18:12:51.681640Z', '2016-07-08T18:12:51.681640Z'],
    ['SysTime', 0x12, [0xe4, 0x07, 1, 0, 4, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0xa6, 0x02], '2020-01-02T03:04:05.678000Z', '2020-01-02T03:04:05.678000Z'],
    ['Sid', 0x13, sid('S-1-5-21-1-2-3'), 'S-1-5-21-1-2-3', 'S-1-5-21-1-2-3'],
    ['HexInt32', 0x14, le(0x1fn, 4), '0x1f', '0x1f'],
    ['HexInt64', 0x15, le(0x8020000000000000n, 8), '0x8020000000000000', '0x8020000000000000'],
    ['AnsiString', 0x02, [0x63, 0x61, 0x66, 0xe9, 0, 0], 'café', 'café'],
    ['String', 0x01, utf16('a<b & "c"'), 'a<b & "c"', 'a&lt;b &amp; "c"'],
  ];

  it('renders every scalar type as the evtx crate does (JSON number/boolean for integers and bools, text otherwise)', () => {
    const body: Body = (w) => {
      eventOpen(w).open('EventData').closeStart();
      scalars.forEach(([name, type], i) => w.data(name, i, type));
      w.end().end().eof();
    };
    const { records, summary } = parse(evtx([record(body, scalars.map(([, type, bytes]) => [type, bytes]))]));
    expect(summary.warningCount).toBe(0);
    const data = (records[0]!.event as { Event: { EventData: Record<string, unknown> } }).Event.EventData;
    expect(data).toEqual(Object.fromEntries(scalars.map(([name, , , json]) => [name, json])));
    for (const [name, , , , xml] of scalars) expect(records[0]!.xml).toContain(`<Data Name="${name}">${xml}</Data>`);
  });

  it('extracts the System fields, with EventID Qualifiers, from typed values', () => {
    const body: Body = (w) => {
      eventOpen(w).open('System').closeStart();
      w.open('Provider', true).attr('Name').text('Prov').closeEmpty();
      w.open('EventID', true).attr('Qualifiers').sub(0, 0x06).closeStart().sub(1, 0x06).end();
      w.open('TimeCreated', true).attr('SystemTime').sub(2, 0x11).closeEmpty();
      w.leaf('EventRecordID', 3, 0x0a).leaf('Channel', 4, 0x01).leaf('Computer', 5, 0x01);
      w.end().end().eof();
    };
    const values: Array<[number, number[]]> = [
      [0x06, le(16384n, 2)],
      [0x06, le(7045n, 2)],
      [0x11, le(FILETIME, 8)],
      [0x0a, le(77n, 8)],
      [0x01, utf16('System')],
      [0x01, utf16('HOST')],
    ];
    const r = parse(evtx([record(body, values)])).records[0]!;
    expect(r).toMatchObject({
      recordId: 1,
      timestamp: '2016-07-08T18:12:51.6816408Z',
      eventId: 7045,
      qualifiers: 16384,
      provider: 'Prov',
      channel: 'System',
      computer: 'HOST',
      timeCreated: '2016-07-08T18:12:51.6816408Z',
      eventRecordId: 77,
    });
    expect((r.event as { Event: { System: unknown } }).Event.System).toEqual({
      Provider: { '#attributes': { Name: 'Prov' } },
      EventID: { '#attributes': { Qualifiers: 16384 }, '#text': 7045 },
      TimeCreated: { '#attributes': { SystemTime: '2016-07-08T18:12:51.681640Z' } },
      EventRecordID: 77,
      Channel: 'System',
      Computer: 'HOST',
    });
  });

  it('expands array substitutions by repeating the element (MS-EVEN6 3.1.4.7.5); single-item arrays stay text', () => {
    const body: Body = (w) => {
      eventOpen(w).open('EventData').closeStart();
      w.leaf('Data', 0, 0x81);
      w.end();
      w.open('Ports').closeStart().open('Port', true).attr('n').sub(1, 0x86).closeEmpty().end();
      w.leaf('One', 2, 0x87).leaf('Sids', 3, 0x93).end().eof();
    };
    const values: Array<[number, number[]]> = [
      [0x81, [...utf16('a'), 0, 0, 0, 0, ...utf16('c'), 0, 0]],
      [0x86, [...le(80n, 2), ...le(443n, 2)]],
      [0x87, le(7n, 4)],
      [0x93, [...sid('S-1-5-18'), ...sid('S-1-5-32-544')]],
    ];
    const r = parse(evtx([record(body, values)])).records[0]!;
    expect((r.event as { Event: unknown }).Event).toEqual({
      '#attributes': { xmlns: 'ns' },
      EventData: { Data: { '#text': ['a', '', 'c'] } },
      Ports: { Port: { '#attributes': { n: 80 } }, Port_1: { '#attributes': { n: 443 } } },
      One: '7',
      Sids: 'S-1-5-18',
      Sids_1: 'S-1-5-32-544',
    });
    expect(r.xml).toContain('    <Data>a</Data>\n    <Data>\n    </Data>\n    <Data>c</Data>');
    expect(r.xml).toContain('<Port n="80">\n    </Port>\n    <Port n="443">');
  });

  it('optional substitutions vanish when empty; normal ones keep an empty value', () => {
    const body: Body = (w) => {
      eventOpen(w).leaf('Optional', 0, 0x01, true).leaf('Normal', 1, 0x01).leaf('NullOptional', 2, 0x00, true).leaf('Binary', 3, 0x0e, true);
      w.open('Attr', true).attr('a').sub(4, 0x01, true).attr('b').sub(5, 0x01).closeEmpty();
      w.end().eof();
    };
    const values: Array<[number, number[]]> = [
      [0x01, []],
      [0x01, []],
      [0x00, []],
      [0x0e, []],
      [0x01, []],
      [0x01, utf16('x')],
    ];
    const r = parse(evtx([record(body, values)])).records[0]!;
    expect((r.event as { Event: unknown }).Event).toEqual({
      '#attributes': { xmlns: 'ns' },
      Optional: null,
      Normal: null,
      NullOptional: null,
      Binary: null,
      Attr: { '#attributes': { b: 'x' } },
    });
    expect(r.xml).toContain('  <Optional>\n  </Optional>\n  <Normal></Normal>\n');
    expect(r.xml).toContain('  <Binary></Binary>\n'); // the crate writes an empty Binary on one line
    expect(r.xml).toContain('<Attr b="x">');
  });

  it('splices nested BinXml substitutions (type 0x21) into the tree', () => {
    const inner: Body = (w) => {
      w.fragment().instance((t) => t.open('Rule', true).attr('id').sub(0, 0x08).closeStart().sub(1, 0x01).end().eof(), [
        [0x08, le(9n, 4)],
        [0x01, utf16('deny')],
      ]);
      w.eof();
    };
    const body: Body = (w) => {
      eventOpen(w).open('UserData').closeStart().sub(0, 0x21).end().end().eof();
    };
    // The nested fragment's offsets are chunk offsets, so it is written where it will sit in the record.
    const file = evtx([
      (w) => {
        w.fragment();
        w.u8(0x0c).u8(1).u32(1);
        const def = w.pos + 4;
        w.u32(def).u32(0).raw(new Array<number>(16).fill(1));
        const sizeAt = w.b.length;
        w.u32(0);
        const start = w.b.length;
        body(w);
        const size = w.b.length - start;
        w.b.splice(sizeAt, 4, size & 0xff, size >> 8, 0, 0);
        w.u32(1);
        const descAt = w.b.length;
        w.u16(0).u8(0x21).u8(0);
        const nestedStart = w.b.length;
        inner(w);
        const n = w.b.length - nestedStart;
        w.b.splice(descAt, 2, n & 0xff, n >> 8);
        w.eof();
      },
    ]);
    const { records, summary } = parse(file);
    expect(summary.warningCount).toBe(0);
    expect((records[0]!.event as { Event: unknown }).Event).toEqual({
      '#attributes': { xmlns: 'ns' },
      UserData: { Rule: { '#attributes': { id: 9 }, '#text': 'deny' } },
    });
    expect(records[0]!.xml).toContain('  <UserData>\n    <Rule id="9">deny</Rule>\n  </UserData>');
  });

  it('renders character data, character and entity references, CDATA and processing instructions', () => {
    const direct: Body = (w) => {
      w.fragment().open('Event', false, false).closeStart();
      w.open('Msg', false, false).closeStart().text('a').u8(0x09).name('amp').text('b').u8(0x08).u16(65);
      w.u8(0x07).u16(3).utf16('<x>').end();
      w.open('Pi', false, false).closeStart().u8(0x0a).name('target').u8(0x0b).u16(4).utf16('data').end();
      w.end().eof();
    };
    const r = parse(evtx([direct])).records[0]!;
    expect(r.event).toEqual({ Event: { Msg: 'a&bA<x>', Pi: null } });
    expect(r.xml).toContain('<Msg>a&amp;b&#65;<![CDATA[<x>]]></Msg>');
    expect(r.xml).toContain('<Pi><?target data?></Pi>');
  });

  it('caches a template per chunk: a later record refers to the definition by offset', () => {
    let def = 0;
    const tpl: Body = (t) => eventOpen(t).leaf('V', 0, 0x01).end().eof();
    const first: Body = (w) => {
      w.fragment();
      def = w.instance(tpl, [[0x01, utf16('one')]]);
      w.eof();
    };
    const second: Body = (w) => w.fragment().instanceOf(def, [[0x01, utf16('two')]]).eof();
    const missing: Body = (w) => w.fragment().instanceOf(40000, [[0x01, utf16('three')]]).eof();
    const { records, summary } = parse(evtx([first, second, missing, second]));
    expect(records.map((r) => (r.event as { Event: { V: string } }).Event.V)).toEqual(['one', 'two', 'two']);
    expect(summary.warningCounts).toEqual({ record_unparsable: 1 });
    expect(summary.warnings[0]).toMatchObject({ code: 'record_unparsable', chunk: 0, recordId: 3 });
  });
});

describe('values remembered by place', () => {
  it('a value is taken again only when its type, size and bytes are the last one\'s at its place', () => {
    clearLastValues();
    const tpl: Body = (t) => {
      eventOpen(t).open('EventData').closeStart();
      t.data('S', 0, 0x01).data('B', 1, 0x0e).data('G', 2, 0x0f).data('H', 3, 0x15).data('I', 4, 0x13).data('Z', 5, 0x10);
      t.end().end().eof();
    };
    const guid2 = [...GUID.slice(0, 15), 0x0e];
    const H = '610062006300640065006600';
    // Repeats (planned records take the remembered node), shorter and longer values sharing a prefix, the same size
    // with other bytes, a NUL inside the text, and values going back to an earlier one.
    const rows: Array<[string | number[], number[], number[], bigint, string, number[], number?]> = [
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8)],
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8)],
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8)],
      ['abc', [1, 2], guid2, 0x11n, 'S-1-5-21-1-2-3', le(0x12n, 8)],
      ['abcdefg', [1, 2, 3, 4, 5], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8)],
      ['abd', [1, 2, 3, 5], GUID, 0x1000000000n, 'S-1-5-19', le(0x11n, 8)],
      [[0x61, 0, 0, 0, 0x62, 0], [1, 2, 3, 4], guid2, 0x10n, 'S-1-5-18', le(0x10n, 8)],
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8)],
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8)],
      // The text's bytes given as a Binary value at its place (another kind of record: planned from its third).
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8), 0x0e],
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8), 0x0e],
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8)],
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8), 0x0e],
      ['abcdef', [1, 2, 3, 4], GUID, 0x10n, 'S-1-5-18', le(0x10n, 8)],
    ];
    let def = 0;
    const bodies: Body[] = rows.map(([text, binary, guid, hex, sidText, size, textType], i) => {
      const values: Array<[number, ArrayLike<number>]> = [
        [textType ?? 0x01, typeof text === 'string' ? utf16(text) : text],
        [0x0e, binary],
        [0x0f, guid],
        [0x15, le(hex, 8)],
        [0x13, sid(sidText)],
        [0x10, size],
      ];
      if (i === 0)
        return (w) => {
          w.fragment();
          def = w.instance(tpl, values);
          w.eof();
        };
      return (w) => w.fragment().instanceOf(def, values).eof();
    });
    const file = evtx(bodies);
    for (const options of [{ json: true }, { json: false, data: true }] as EvtxOptions[]) {
      const planned = parseEvtx(file, options).records;
      const tree = parseEvtx(file, { ...options, xml: true }).records.map(({ xml: _xml, ...rest }) => rest);
      expect(planned).toEqual(tree);
      expect(planned.map((r) => r.data?.['S'] ?? (r.event as { Event: { EventData: Record<string, unknown> } }).Event.EventData['S'])).toEqual(['abcdef', 'abcdef', 'abcdef', 'abc', 'abcdefg', 'abd', 'a', 'abcdef', 'abcdef', ...[H, H, 'abcdef', H, 'abcdef']]);
    }
    // The same file again with every place already holding its values, and after they are forgotten.
    expect(parseEvtx(file, { json: true }).records).toEqual(parseEvtx(file, { json: true, xml: true }).records.map(({ xml: _xml, ...rest }) => rest));
  });
});

describe('template identity across definitions', () => {
  // Records 1-3 use one definition and records 4-5 another of the same shape (each record stores its own copy). A
  // record kind's plan is made on its second record and used from its third, so if the two definitions shared an
  // identity, records 4-5 would be filled from the first definition's plan and show its literal text.
  function pair(a: Body, b: Body): { planned: string[]; tree: string[] } {
    const one = (literal: Body): Body => record((t) => {
      eventOpen(t).open('EventData').closeStart().leaf('S', 0, 0x01);
      t.open('Msg').closeStart();
      literal(t);
      t.end().end().end().eof();
    }, [[0x01, utf16('x')]]);
    const file = evtx([one(a), one(a), one(a), one(b), one(b)]);
    const msg = (records: readonly { event?: unknown }[]): string[] => records.map((r) => (r.event as { Event: { EventData: { Msg: string } } }).Event.EventData.Msg);
    return { planned: msg(parseEvtx(file, { json: true }).records), tree: msg(parse(file).records) };
  }
  const real64 = (v: number): Body => (t) => t.u8(0x05).u8(0x0c).raw(f64(v));
  const real32 = (v: number): Body => (t) => t.u8(0x05).u8(0x0b).raw(f32(v));

  it.each([
    ['Real64 0.0 and -0.0', real64(0), real64(-0), '0.0', '-0.0'],
    ['Real32 0.0 and -0.0', real32(0), real32(-0), '0.0', '-0.0'],
    ['NaN and inf', real64(NaN), real64(Infinity), 'NaN', 'inf'],
    ['inf and -inf', real64(Infinity), real64(-Infinity), 'inf', '-inf'],
  ])('literal values that JSON text writes alike give distinct templates: %s', (_name, a, b, textA, textB) => {
    const { planned, tree } = pair(a, b);
    expect(tree).toEqual([textA, textA, textA, textB, textB]);
    expect(planned).toEqual(tree);
  });

  it('a character reference followed by text cannot read as a longer reference and other text', () => {
    // &#10; then "abcd17:abcdefg", against &#101; then "abcd" and "abcdefg": alike when a reference's number ran into
    // the next node's kind and size.
    const a: Body = (t) => t.u8(0x08).u16(10).text('abcd17:abcdefg');
    const b: Body = (t) => t.u8(0x08).u16(101).text('abcd').text('abcdefg');
    const { planned, tree } = pair(a, b);
    expect(tree).toEqual(['\nabcd17:abcdefg', '\nabcd17:abcdefg', '\nabcd17:abcdefg', 'eabcdabcdefg', 'eabcdabcdefg']);
    expect(planned).toEqual(tree);
  });
});

describe('definitions shared across chunks', () => {
  // A chunk's definitions are reused in later chunks and files when their bytes, inline names and referenced names
  // match. Each case parses a file after another that holds a look-alike definition, against the same file parsed
  // with nothing shared.
  function fresh(file: Uint8Array, options: EvtxOptions = {}): ReturnType<typeof parseEvtx> {
    clearSharedDefinitions();
    return parse(file, options);
  }
  function after(first: Uint8Array, file: Uint8Array, options: EvtxOptions = {}): ReturnType<typeof parseEvtx> {
    clearSharedDefinitions();
    parse(first);
    return parse(file, options);
  }
  const filler = record((t) => eventOpen(t).leaf('F', 0, 0x01).end().eof(), [[0x01, utf16('z'.repeat(300))]]);
  const named = (t: W, nameAt: number): W => t.u8(0x01).u16(0xffff).u32(0).u32(nameAt);
  /** A name stored at a chunk offset outside the records. */
  const nameAt =
    (off: number, name: string) =>
    (chunk: Uint8Array): void => {
      const v = new DataView(chunk.buffer);
      v.setUint32(off, 0, true);
      v.setUint16(off + 6, name.length, true);
      for (let i = 0; i < name.length; i++) v.setUint16(off + 8 + 2 * i, name.charCodeAt(i), true);
    };

  it('a definition moved to another offset renders as a fresh parse does', () => {
    const rec = record((t) => eventOpen(t).leaf('V', 0, 0x01).end().eof(), [[0x01, utf16('v')]]);
    const moved = evtx([filler, rec, rec]);
    const shared = after(evtx([rec]), moved);
    expect(shared.records.map((r) => r.event)).toEqual(fresh(moved).records.map((r) => r.event));
    expect((shared.records[1]!.event as { Event: { V: string } }).Event.V).toBe('v');
  });

  it('the same bytes naming an element stored elsewhere take the name this chunk stores there', () => {
    const rec = record((t) => {
      eventOpen(t);
      named(t, 60000).closeStart().sub(0, 0x01).end();
      t.end().eof();
    }, [[0x01, utf16('v')]]);
    const omega = evtx([rec], nameAt(60000, 'Omega'));
    const shared = after(evtx([rec], nameAt(60000, 'Alpha')), omega);
    expect(shared.records[0]!.event).toEqual({ Event: { '#attributes': { xmlns: 'ns' }, Omega: 'v' } });
    expect(shared.records).toEqual(fresh(omega).records);
  });

  it('a name stored inline in one copy is not taken as inline in a moved copy whose field still points to the old place', () => {
    let field = -1;
    const rec = record((t) => {
      eventOpen(t);
      t.u8(0x01).u16(0xffff).u32(0);
      if (field < 0) field = t.pos + 4;
      t.u32(field).u32(0).u16(0).u16(1).utf16('E').u16(0).closeStart().sub(0, 0x01).end();
      t.end().eof();
    }, [[0x01, utf16('v')]]);
    const first = evtx([rec]);
    const moved = evtx([filler, rec]);
    const shared = after(first, moved);
    expect(shared.records).toEqual(fresh(moved).records);
    expect(shared.summary).toEqual(fresh(moved).summary);
    expect(shared.records.some((r) => JSON.stringify(r.event).includes('"E":"v"'))).toBe(false);
  });

  it('keeps its own copy of the bytes: a Buffer overwritten in place with another definition is parsed afresh', () => {
    const literal = (text: string): Body => record((t) => eventOpen(t).open('M').closeStart().text(text).end().leaf('V', 0, 0x01).end().eof(), [[0x01, utf16('v')]]);
    const buffer = Buffer.from(evtx([literal('aaaa')]));
    const other = evtx([literal('bbbb')]);
    clearSharedDefinitions();
    expect((parse(buffer).records[0]!.event as { Event: { M: string } }).Event.M).toBe('aaaa');
    buffer.set(other);
    expect((parse(buffer).records[0]!.event as { Event: { M: string } }).Event.M).toBe('bbbb');
  });

  it('the node and depth limits of the parser at hand apply to a shared definition', () => {
    let def = 0;
    const tpl: Body = (t) => eventOpen(t).open('A').closeStart().open('B').closeStart().leaf('V', 0, 0x01).end().end().end().eof();
    const first: Body = (w) => {
      w.fragment();
      def = w.instance(tpl, [[0x01, utf16('one')]]);
      w.eof();
    };
    const second: Body = (w) => w.fragment().instanceOf(def, [[0x01, utf16('two')]]).eof();
    const file = evtx([first, second]);
    // A definition's parse counts its nodes in the record that first uses it in a chunk, so some node limits stop
    // that record and pass the next one, which finds the definition parsed.
    const limits = [{ maxElementDepth: 2 }, ...Array.from({ length: 40 }, (_, i) => ({ maxNodes: i + 1 }))];
    const counts = new Set<number>();
    for (const limit of limits) {
      const shared = after(file, file, { limits: limit });
      const alone = fresh(file, { limits: limit });
      expect(shared.records).toEqual(alone.records);
      expect(shared.summary).toEqual(alone.summary);
      counts.add(alone.records.length);
    }
    expect([...counts].sort()).toEqual([0, 1, 2]);
  });
});

describe('caps against hostile BinXml', () => {
  it('a chain of nested fragments deeper than the limit is one warning', () => {
    // Each level is a value token of type 0x21 holding the next level: element(Value(BinXml(...))).
    const nest = (w: W, depth: number): void => {
      w.open('L', false, false).closeStart();
      if (depth > 0) {
        w.u8(0x05).u8(0x21);
        const lenAt = w.b.length;
        w.u16(0);
        const start = w.b.length;
        nest(w, depth - 1);
        const n = w.b.length - start;
        w.b.splice(lenAt, 2, n & 0xff, n >> 8);
      }
      w.end();
    };
    const file = evtx([(w) => nest(w.fragment(), 10), (w) => nest(w.fragment(), 60)]);
    const { records, summary } = parse(file);
    expect(records.length).toBe(1);
    expect(summary.warnings.map((w) => [w.code, w.message])).toEqual([['record_unparsable', 'record skipped: BinXml nested too deeply']]);
    expect(parse(file, { limits: { maxNesting: 3 } }).records.length).toBe(0);
  });

  it('an array cross product beyond the node budget is one warning, not an exhausted heap', () => {
    const items = (n: number): number[] => Array.from({ length: n }, (_, i) => le(BigInt(i), 4)).flat();
    const body: Body = (w) => eventOpen(w).open('X', true).attr('a').sub(0, 0x88).attr('b').sub(1, 0x88).closeEmpty().end().eof();
    const { records, summary } = parse(evtx([record(body, [[0x88, items(1000)], [0x88, items(1000)]])]));
    expect(records.length).toBe(0);
    expect(summary.warnings[0]?.message).toBe('record skipped: record expands to too many nodes');
  });

  it('a template that instantiates itself, a huge substitution count and a zero-size record end in warnings', () => {
    const selfRef: Body = (w) => {
      w.fragment();
      w.u8(0x0c).u8(1).u32(1);
      const def = w.pos + 4;
      w.u32(def).u32(0).raw(new Array<number>(16).fill(2));
      const sizeAt = w.b.length;
      w.u32(0);
      const start = w.b.length;
      // The template's only content is a nested fragment that instantiates this same template.
      w.open('E').closeStart().u8(0x05).u8(0x21);
      const nested = new W(0);
      nested.fragment().u8(0x0c).u8(1).u32(1).u32(def).u32(0).eof();
      w.u16(nested.b.length).raw(nested.b).end().eof();
      const size = w.b.length - start;
      w.b.splice(sizeAt, 4, size & 0xff, size >> 8, 0, 0);
      w.u32(0).eof();
    };
    const hugeCount: Body = (w) => w.fragment().u8(0x0c).u8(1).u32(1).u32(8).u32(0xffffffff).eof();
    const { records, summary } = parse(evtx([selfRef, hugeCount]));
    expect(records.length).toBe(0);
    expect(summary.warningCounts.record_unparsable).toBe(2);

    const zero = evtx([record((t) => eventOpen(t).end().eof(), [])], (chunk) => new DataView(chunk.buffer).setUint32(512 + 4, 0, true));
    const z = parse(zero);
    expect(z.records.length).toBe(0);
    expect(z.summary.warningCounts.record_bad_size).toBe(1);
  });

  it('a free-space offset past the chunk is a warning and the records are still read', () => {
    const file = evtx([record((t) => eventOpen(t).end().eof(), [])], (chunk) => new DataView(chunk.buffer).setUint32(48, 0xffffffff, true));
    const { records, summary } = parse(file);
    expect(records.length).toBe(1);
    expect(summary.warningCounts.chunk_bad_free_space).toBe(1);
  });

  it('an empty fragment still yields a record with an empty Event, as the evtx crate does', () => {
    const { records } = parse(evtx([(w) => w.fragment().eof()]));
    expect(records[0]?.event).toEqual({ Event: null });
    expect(records[0]?.xml).toBe('<?xml version="1.0" encoding="utf-8"?>\n<Event>\n</Event>');
  });
});

describe('node limits count each record alone', () => {
  it('whether a record passes the node limit does not depend on the record before it', () => {
    // A wide record then a narrow one with its own definition. The JSON path reads a record's definitions before
    // rendering it; the narrow record's definition must be counted from zero, not on top of the wide record's nodes.
    const wide: Body = (t) => {
      eventOpen(t);
      for (let i = 0; i < 12; i++) t.leaf(`W${i}`, i, 0x01);
      t.end().eof();
    };
    const narrow: Body = (t) => eventOpen(t).leaf('N', 0, 0x01).end().eof();
    const big = record(wide, Array.from({ length: 12 }, (_, i): [number, number[]] => [0x01, utf16(`v${i}`)]));
    const small = record(narrow, [[0x01, utf16('n')]]);
    const outcomes = new Set<string>();
    for (let maxNodes = 1; maxNodes <= 120; maxNodes++) {
      for (const json of [true, false]) {
        clearSharedDefinitions();
        const after = parseEvtx(evtx([big, small]), { json, limits: { maxNodes } }).records.map((r) => r.recordId);
        clearSharedDefinitions();
        const alone = parseEvtx(evtx([small]), { json, limits: { maxNodes } }).records.length === 1;
        expect(after.includes(2), `maxNodes ${maxNodes}, json ${json}`).toBe(alone);
        outcomes.add(`${after.join()}`);
      }
    }
    // The limits reach every outcome: none kept, the narrow record alone, both.
    expect([...outcomes].sort()).toEqual(['', '1,2', '2']);
  });
});
