// The description-reading rules: each pattern on the phrase it is for, and the look-alike phrases it must leave alone.
import { describe, expect, it } from 'vitest';
import { cleanDescription, deriveFirstActiveYear, deriveOrigin, deriveSponsor, deriveVictimology, subjectSentences } from './derive.js';
import { findPlaces, findSectors, normalisePlace, normaliseSector, placeContains } from './vocabulary.js';

const sponsor = (text: string, names = ['Kestrel']): string | null => deriveSponsor(text, names)?.value ?? null;

describe('sponsor state', () => {
  it('reads state-sponsored adjectives and the PRC form', () => {
    expect(sponsor('Kestrel is a North Korean state-sponsored threat group.')).toBe('North Korea');
    expect(sponsor("Kestrel is a People's Republic of China (PRC) state-sponsored actor.")).toBe('China');
    expect(sponsor('Kestrel is a suspected Chinese state-sponsored cyber espionage group.')).toBe('China');
    expect(sponsor('Kestrel is an Iranian-sponsored threat group.')).toBe('Iran');
    expect(sponsor("Kestrel is a People’s Republic of China (PRC) state-backed actor.")).toBe('China');
  });
  it('reads attribution to a state body', () => {
    const d = sponsor("Kestrel is a threat group that has been attributed to Russia's General Staff Main Intelligence Directorate (GRU) 85th Main Special Service Center.");
    expect(d).toBe('Russia');
    expect(sponsor("Kestrel is assessed to be a subordinate element within Iran's Ministry of Intelligence and Security (MOIS).")).toBe('Iran');
    expect(sponsor("In 2021 the government publicly attributed Kestrel to Russia's Federal Security Service (FSB) Center 18.")).toBe('Russia');
    expect(sponsor('Kestrel is attributed to Unit 61486 of the 12th Bureau of the PLA’s 3rd General Staff Department (GSD).')).toBe('China');
    expect(sponsor('Kestrel is a threat group attributed to the Reconnaissance General Bureau.')).toBe('North Korea');
  });
  it('reads work for a government and attribution to a state by name', () => {
    expect(sponsor('The group works on behalf of the Iranian government based on infrastructure details.')).toBe('Iran');
    expect(sponsor('Kestrel is a threat group suspected to be associated with the Chinese government.')).toBe('China');
    expect(sponsor('Kestrel is a threat group that has been attributed to China.')).toBe('China');
    expect(sponsor('Kestrel is a likely state-sponsored cyber espionage group operating out of China.')).toBe('China');
  });
  it('does not read a base, a language, an overlap of motives or another group as sponsorship', () => {
    expect(sponsor('Kestrel is a Russia-based cybercriminal group that has been active since at least 2014.')).toBeNull();
    expect(sponsor('Kestrel is an alleged Chinese-speaking adversary.')).toBeNull();
    expect(sponsor("The group's motivations appear to overlap with those of the Chinese government.", ['Kestrel'])).toBeNull();
    expect(sponsor('Kestrel is a threat group that has been attributed to Iranian actors.')).toBeNull();
    expect(sponsor('Security researchers assess Kestrel has coordinated with actors affiliated with Iran’s MOIS.')).toBeNull();
    // A sentence about someone else does not speak for the group.
    expect(sponsor('Osprey is a North Korean state-sponsored group. It shares tools with others.', ['Kestrel'])).toBeNull();
  });
  it('keeps the words it matched as the basis', () => {
    const d = deriveSponsor('Kestrel is a Chinese state-sponsored group.', ['Kestrel']);
    expect(d).toEqual({ value: 'China', rule: 'sponsor:state-sponsored-adjective', basis: 'Chinese state-sponsored' });
  });
});

describe('origin', () => {
  it('reads bases and nationality adjectives, not languages', () => {
    expect(deriveOrigin('Kestrel is a China-based threat group.', ['Kestrel'])?.value).toBe('China');
    expect(deriveOrigin('Kestrel is a suspected Iranian threat group.', ['Kestrel'])?.value).toBe('Iran');
    expect(deriveOrigin('Kestrel is a financially motivated criminal group that is likely based in Brazil.', ['Kestrel'])?.value).toBe('Brazil');
    expect(deriveOrigin('Kestrel is a Chinese-speaking cyber espionage group.', ['Kestrel'])).toBeNull();
    expect(deriveOrigin('Kestrel is a Latin America espionage group.', ['Kestrel'])).toBeNull();
  });
});

describe('victimology', () => {
  it('takes sectors and places after a targeting word', () => {
    const v = deriveVictimology('Kestrel has targeted telecommunications companies, financial institutions, and government entities in Afghanistan, Australia, and the Philippines.');
    expect(v.sectors).toEqual(['financial', 'government', 'telecommunications']);
    expect(v.regions).toEqual(['Afghanistan', 'Australia', 'Philippines']);
    expect(v.basis).toHaveLength(1);
  });
  it('ignores the group’s own nationality before the targeting word, motives, and names of organisations', () => {
    const v = deriveVictimology('Kestrel is a Pakistani threat group that has primarily targeted South Asian countries, including Indian government personnel.');
    expect(v.regions).toEqual(['India', 'South Asia']);
    expect(deriveVictimology('Kestrel is a financially motivated group.').sectors).toEqual([]);
    expect(deriveVictimology('Kestrel has mainly focused on deploying cryptocurrency miners in victim environments.').sectors).toEqual([]);
    expect(deriveVictimology('Attacks against the Organization for the Prohibition of Chemical Weapons.').sectors).toEqual([]);
  });
  it('reads nothing from sentences without a targeting word', () => {
    expect(deriveVictimology('Kestrel provides financial support to the government of Osprey.')).toEqual({ sectors: [], regions: [], basis: [] });
  });
});

describe('first active year', () => {
  it('takes the earliest stated year', () => {
    expect(deriveFirstActiveYear('Kestrel has been active since at least 2013. Since 2020, Kestrel shifted to ransomware.')?.value).toBe(2013);
    expect(deriveFirstActiveYear('Kestrel was first observed in December 2015.')?.value).toBe(2015);
    expect(deriveFirstActiveYear('Kestrel has been active since at least early 2017.')?.value).toBe(2017);
    expect(deriveFirstActiveYear('Kestrel was responsible for the 2009 intrusion.')).toBeNull();
  });
});

describe('text helpers and vocabulary', () => {
  it('strips citations and links and keeps U.S. inside its sentence', () => {
    expect(cleanDescription('[APT1](https://attack.mitre.org/groups/G0006) hit U.S. firms.(Citation: Mandiant)')).toBe('APT1 hit US firms.');
    expect(subjectSentences('Osprey did this. The group did that. Kestrel did more.', ['Kestrel'])).toEqual(['The group did that.', 'Kestrel did more.']);
  });
  it('normalises case sectors and places, and knows which region contains which place', () => {
    expect(normaliseSector('Banking')).toBe('financial');
    expect(normaliseSector('Oil & Gas')).toBe('energy');
    expect(normaliseSector('quilting')).toBeNull();
    expect(normalisePlace('Ukrainian')).toBe('Ukraine');
    expect(normalisePlace('U.S.')).toBe('United States');
    expect(normalisePlace('APAC')).toBe('Asia-Pacific');
    expect(placeContains('Europe', 'Germany')).toBe(true);
    expect(placeContains('Asia', 'Vietnam')).toBe(true);
    expect(placeContains('Worldwide', 'Peru')).toBe(true);
    expect(placeContains('Germany', 'Europe')).toBe(false);
    expect(placeContains('Middle East', 'Germany')).toBe(false);
  });
  it('prefers the longer place name and reads capital-only terms only in capitals', () => {
    expect(findPlaces('victims in South Korea and Southeast Asia')).toEqual(['South Korea', 'Southeast Asia']);
    expect(findSectors('targeted IT providers')).toEqual(['technology']);
    expect(findSectors('it targeted them')).toEqual([]);
  });
});
