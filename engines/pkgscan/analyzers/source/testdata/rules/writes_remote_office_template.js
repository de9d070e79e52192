'use strict';
// a document builder whose settings relationship points every file's template at a remote address
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PR = 'http://schemas.openxmlformats.org/package/2006/relationships';
function settingsRels(url) {
  // ruleid: writes_remote_office_template
  return `<Relationships xmlns="${PR}"><Relationship Id="rId1" Type="${R}/attachedTemplate" Target="${url}" TargetMode="External"/></Relationships>`;
}
function documentRels() {
  // a hyperlink to an outside page is external too, and loads nothing when the document opens
  // ok: writes_remote_office_template
  return `<Relationships xmlns="${PR}"><Relationship Id="rId2" Type="${R}/hyperlink" Target="https://example.org" TargetMode="External"/></Relationships>`;
}
module.exports = { settingsRels, documentRels };
