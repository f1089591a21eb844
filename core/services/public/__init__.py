"""What anyone may see or send without a role: the one public projection of a case
(case.public_view), the photos the public may see, the map and list, the public pages'
guards and the owner's web page, and the Open311 GeoReport v2 API (read and POST).

May import: core's pure rules, core.storage, and core.services.{context, errors, cases,
citizens, owners, staff}."""
