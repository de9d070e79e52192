// Applies the theme to <html data-theme>, following prefers-color-scheme unless the user chose one.
import { useEffect, useState } from 'react';
import { effectiveTheme, type ThemePreference } from '../store';

const QUERY = '(prefers-color-scheme: dark)';

export function useSystemPrefersDark(): boolean {
  const [dark, setDark] = useState(() => typeof matchMedia === 'function' && matchMedia(QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return undefined;
    const mq = matchMedia(QUERY);
    const on = (e: MediaQueryListEvent): void => setDark(e.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return dark;
}

export function useAppliedTheme(pref: ThemePreference): 'light' | 'dark' {
  const systemDark = useSystemPrefersDark();
  const theme = effectiveTheme(pref, systemDark);
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return theme;
}
