SETTINGS_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    # ruleid: writes_remote_office_template
    '<Relationship Id="rId1" TargetMode="External" Target="{url}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate"/>'
    "</Relationships>"
)
# a template kept inside the document's own package
# ok: writes_remote_office_template
LOCAL = '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="file:///C:/Templates/Normal.dotm"/>'
