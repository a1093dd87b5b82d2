/// The OpenAPI 3 description of the API, served at `/api/openapi.yaml`. Hand-written beside the routes
/// (in JSON syntax, which is YAML too, so tests read it with JSONSerialization); `OpenAPIConformanceTests`
/// checks real answers against it.
enum OpenAPIDocument {
    static let yaml = #"""
{
  "openapi": "3.0.3",
  "info": {
    "title": "sticker-catalog",
    "version": "0.1.0",
    "description": "The API of `catalog serve`: JSON with the CLI's --json field names and values. Rules: requests must name the served host (Host; else 403 wrong-host), must not come from another origin (Origin; else 403 foreign-origin), and every method but GET/HEAD needs the header X-Catalog-Token with the per-run token, which the served page carries as <meta name=\"catalog-token\" content=\"...\"> in index.html (and `catalog serve --json` prints). Errors are {\"error\": {\"code\", \"message\"}}. This document is JSON-style YAML. Once the server is stopping (after SIGINT or SIGTERM), every change is answered 503 stopping. A request that declares a body (Content-Length) over the route's limit is answered 413 before the body is read: 1 MB for JSON, and for an upload the free space of the uploads folder."
  },
  "servers": [
    {
      "url": "/"
    }
  ],
  "components": {
    "securitySchemes": {
      "catalogToken": {
        "type": "apiKey",
        "in": "header",
        "name": "X-Catalog-Token"
      }
    },
    "schemas": {
      "Error": {
        "type": "object",
        "properties": {
          "error": {
            "type": "object",
            "properties": {
              "code": {
                "type": "string",
                "description": "A stable word: bad-parameter, bad-color, bad-id, bad-json, bad-upload, bad-setting, invalid-name, invalid-value, invalid-position, not-found, source-missing, source-unreadable, source-changed, no-photo, invalid-guidance, no-subject, unknown-entries, token-required, bad-token, foreign-origin, wrong-host, already-exists, not-stickers, not-in-pack, missing-stickers, empty-pack, too-few-stickers, title-too-long, does-not-fit, job-running, busy, too-large, model-unavailable, internal, ..."
              },
              "message": {
                "type": "string",
                "description": "What went wrong, for people."
              }
            },
            "required": [
              "code",
              "message"
            ]
          }
        },
        "required": [
          "error"
        ]
      },
      "Failure": {
        "type": "object",
        "properties": {
          "code": {
            "type": "string"
          },
          "message": {
            "type": "string"
          }
        },
        "required": [
          "code",
          "message"
        ]
      },
      "StaleReason": {
        "type": "string",
        "enum": [
          "pipeline",
          "settings",
          "source-changed",
          "failed",
          "source-missing"
        ]
      },
      "EntryPageItem": {
        "type": "object",
        "properties": {
          "id": {
            "type": "integer"
          },
          "sha256": {
            "type": "string",
            "nullable": true
          },
          "path": {
            "type": "string"
          },
          "status": {
            "type": "string",
            "enum": [
              "ok",
              "failed"
            ]
          },
          "failure": {
            "allOf": [
              {
                "$ref": "#/components/schemas/Failure"
              }
            ],
            "nullable": true
          },
          "reasons": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/StaleReason"
            },
            "description": "Stale reasons the catalog records (pipeline, settings, failed); source files are not checked for a page."
          }
        },
        "required": [
          "id",
          "sha256",
          "path",
          "status",
          "failure",
          "reasons"
        ]
      },
      "EntryPage": {
        "type": "object",
        "properties": {
          "total": {
            "type": "integer",
            "description": "Entries matching, on every page."
          },
          "limit": {
            "type": "integer"
          },
          "offset": {
            "type": "integer"
          },
          "entries": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/EntryPageItem"
            }
          }
        },
        "required": [
          "total",
          "limit",
          "offset",
          "entries"
        ]
      },
      "Exif": {
        "type": "object",
        "properties": {
          "make": {
            "type": "string",
            "nullable": true
          },
          "model": {
            "type": "string",
            "nullable": true
          },
          "lensModel": {
            "type": "string",
            "nullable": true
          },
          "takenAt": {
            "type": "string",
            "nullable": true
          },
          "exposureTime": {
            "type": "number",
            "nullable": true
          },
          "fNumber": {
            "type": "number",
            "nullable": true
          },
          "iso": {
            "type": "integer",
            "nullable": true
          },
          "focalLength": {
            "type": "number",
            "nullable": true
          },
          "orientation": {
            "type": "integer",
            "nullable": true
          },
          "gpsLatitude": {
            "type": "number",
            "nullable": true
          },
          "gpsLongitude": {
            "type": "number",
            "nullable": true
          },
          "gpsAltitude": {
            "type": "number",
            "nullable": true
          }
        },
        "required": [
          "make",
          "model",
          "lensModel",
          "takenAt",
          "exposureTime",
          "fNumber",
          "iso",
          "focalLength",
          "orientation",
          "gpsLatitude",
          "gpsLongitude",
          "gpsAltitude"
        ]
      },
      "StickerSettings": {
        "type": "object",
        "properties": {
          "size": {
            "type": "integer"
          },
          "outline": {
            "type": "integer"
          },
          "shadow": {
            "type": "boolean"
          },
          "paletteColors": {
            "type": "integer"
          },
          "model": {
            "type": "string",
            "enum": [
              "u2net",
              "u2netp"
            ],
            "description": "The segmentation model that cut the subject out."
          }
        },
        "required": [
          "size",
          "outline",
          "shadow",
          "paletteColors",
          "model"
        ]
      },
      "Sticker": {
        "type": "object",
        "properties": {
          "width": {
            "type": "integer"
          },
          "height": {
            "type": "integer"
          },
          "bytes": {
            "type": "integer"
          },
          "pipelineVersion": {
            "type": "integer"
          },
          "settings": {
            "$ref": "#/components/schemas/StickerSettings"
          }
        },
        "required": [
          "width",
          "height",
          "bytes",
          "pipelineVersion",
          "settings"
        ]
      },
      "GuidancePoint": {
        "type": "object",
        "properties": {
          "x": {
            "type": "integer"
          },
          "y": {
            "type": "integer"
          }
        },
        "required": [
          "x",
          "y"
        ],
        "description": "A pixel of the upright photo (origin at the top left, x to the right, y down)."
      },
      "GuidanceBox": {
        "type": "object",
        "properties": {
          "x": {
            "type": "integer"
          },
          "y": {
            "type": "integer"
          },
          "width": {
            "type": "integer"
          },
          "height": {
            "type": "integer"
          }
        },
        "required": [
          "x",
          "y",
          "width",
          "height"
        ],
        "description": "A rectangle of the upright photo: the subject lies inside it."
      },
      "Guidance": {
        "type": "object",
        "properties": {
          "box": {
            "allOf": [
              {
                "$ref": "#/components/schemas/GuidanceBox"
              }
            ],
            "nullable": true
          },
          "include": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/GuidancePoint"
            }
          },
          "exclude": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/GuidancePoint"
            }
          }
        },
        "required": [
          "box",
          "include",
          "exclude"
        ],
        "description": "What `catalog recut` stored for the entry's cut-out: applied to every later cut-out of it."
      },
      "PaletteColor": {
        "type": "object",
        "properties": {
          "hex": {
            "type": "string"
          },
          "share": {
            "type": "number"
          }
        },
        "required": [
          "hex",
          "share"
        ]
      },
      "EntryDetail": {
        "type": "object",
        "properties": {
          "id": {
            "type": "integer"
          },
          "sha256": {
            "type": "string",
            "nullable": true
          },
          "path": {
            "type": "string"
          },
          "status": {
            "type": "string",
            "enum": [
              "ok",
              "failed"
            ]
          },
          "failure": {
            "allOf": [
              {
                "$ref": "#/components/schemas/Failure"
              }
            ],
            "nullable": true
          },
          "format": {
            "type": "string",
            "nullable": true
          },
          "width": {
            "type": "integer",
            "nullable": true
          },
          "height": {
            "type": "integer",
            "nullable": true
          },
          "exif": {
            "$ref": "#/components/schemas/Exif"
          },
          "sticker": {
            "allOf": [
              {
                "$ref": "#/components/schemas/Sticker"
              }
            ],
            "nullable": true
          },
          "palette": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PaletteColor"
            }
          },
          "guidance": {
            "allOf": [
              {
                "$ref": "#/components/schemas/Guidance"
              }
            ],
            "nullable": true
          }
        },
        "required": [
          "id",
          "sha256",
          "path",
          "status",
          "failure",
          "format",
          "width",
          "height",
          "exif",
          "sticker",
          "palette",
          "guidance"
        ],
        "description": "Exactly what `catalog show ID --json` prints."
      },
      "CutoutGuidance": {
        "type": "object",
        "description": "What a person told the cut-out about the subject, in pixels of the upright photo (its full size after the EXIF orientation), origin at the top left. No box and no points: the automatic cut-out.",
        "properties": {
          "box": {
            "type": "object",
            "nullable": true,
            "description": "The subject lies inside this rectangle (at least 1 x 1, inside the photo).",
            "properties": {
              "x": {
                "type": "integer"
              },
              "y": {
                "type": "integer"
              },
              "width": {
                "type": "integer"
              },
              "height": {
                "type": "integer"
              }
            },
            "required": [
              "x",
              "y",
              "width",
              "height"
            ]
          },
          "include": {
            "type": "array",
            "description": "The part under each point is kept.",
            "items": {
              "type": "object",
              "description": "A pixel of the upright photo.",
              "properties": {
                "x": {
                  "type": "integer"
                },
                "y": {
                  "type": "integer"
                }
              },
              "required": [
                "x",
                "y"
              ]
            }
          },
          "exclude": {
            "type": "array",
            "description": "The part under each point is taken out.",
            "items": {
              "type": "object",
              "description": "A pixel of the upright photo.",
              "properties": {
                "x": {
                  "type": "integer"
                },
                "y": {
                  "type": "integer"
                }
              },
              "required": [
                "x",
                "y"
              ]
            }
          }
        },
        "required": []
      },
      "SearchHit": {
        "type": "object",
        "properties": {
          "id": {
            "type": "integer"
          },
          "path": {
            "type": "string"
          },
          "distance": {
            "type": "number"
          },
          "color": {
            "type": "string"
          },
          "share": {
            "type": "number"
          }
        },
        "required": [
          "id",
          "path",
          "distance",
          "color",
          "share"
        ]
      },
      "Stats": {
        "type": "object",
        "properties": {
          "total": {
            "type": "integer"
          },
          "ok": {
            "type": "integer"
          },
          "failed": {
            "type": "integer"
          },
          "failuresByCode": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          },
          "stickersByPipelineVersion": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          },
          "stickerBytes": {
            "type": "integer"
          },
          "paletteColors": {
            "type": "integer"
          },
          "packs": {
            "type": "integer"
          },
          "fileSize": {
            "type": "integer"
          },
          "migrations": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "required": [
          "total",
          "ok",
          "failed",
          "failuresByCode",
          "stickersByPipelineVersion",
          "stickerBytes",
          "paletteColors",
          "packs",
          "fileSize",
          "migrations"
        ]
      },
      "PackSummary": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "author": {
            "type": "string",
            "nullable": true
          },
          "count": {
            "type": "integer"
          },
          "createdAt": {
            "type": "string"
          }
        },
        "required": [
          "name",
          "title",
          "author",
          "count",
          "createdAt"
        ]
      },
      "PackItem": {
        "type": "object",
        "properties": {
          "position": {
            "type": "integer"
          },
          "id": {
            "type": "integer"
          },
          "emoji": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "path": {
            "type": "string"
          },
          "width": {
            "type": "integer"
          },
          "height": {
            "type": "integer"
          },
          "bytes": {
            "type": "integer"
          }
        },
        "required": [
          "position",
          "id",
          "emoji",
          "path",
          "width",
          "height",
          "bytes"
        ]
      },
      "PackDetail": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "author": {
            "type": "string",
            "nullable": true
          },
          "createdAt": {
            "type": "string"
          },
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PackItem"
            }
          }
        },
        "required": [
          "name",
          "title",
          "author",
          "createdAt",
          "items"
        ]
      },
      "PackAddResult": {
        "type": "object",
        "properties": {
          "added": {
            "type": "array",
            "items": {
              "type": "integer"
            }
          },
          "alreadyPresent": {
            "type": "array",
            "items": {
              "type": "integer"
            }
          },
          "skipped": {
            "type": "array",
            "items": {
              "type": "integer"
            }
          }
        },
        "required": [
          "added",
          "alreadyPresent",
          "skipped"
        ]
      },
      "ExportFit": {
        "type": "object",
        "properties": {
          "id": {
            "type": "integer",
            "nullable": true
          },
          "file": {
            "type": "string"
          },
          "width": {
            "type": "integer"
          },
          "height": {
            "type": "integer"
          },
          "bytes": {
            "type": "integer"
          },
          "limit": {
            "type": "integer",
            "nullable": true
          },
          "encoding": {
            "type": "string"
          },
          "ok": {
            "type": "boolean"
          }
        },
        "required": [
          "file",
          "width",
          "height",
          "bytes",
          "encoding",
          "ok"
        ]
      },
      "ExportReport": {
        "type": "object",
        "properties": {
          "pack": {
            "type": "string"
          },
          "format": {
            "type": "string",
            "enum": [
              "telegram",
              "whatsapp",
              "signal",
              "imessage",
              "png",
              "zip"
            ]
          },
          "dryRun": {
            "type": "boolean"
          },
          "ok": {
            "type": "boolean"
          },
          "parts": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "name": {
                  "type": "string"
                },
                "path": {
                  "type": "string"
                },
                "count": {
                  "type": "integer"
                },
                "files": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/ExportFit"
                  }
                }
              },
              "required": [
                "name",
                "path",
                "count",
                "files"
              ]
            }
          }
        },
        "required": [
          "pack",
          "format",
          "dryRun",
          "ok",
          "parts"
        ]
      },
      "Setting": {
        "type": "object",
        "properties": {
          "key": {
            "type": "string"
          },
          "value": {
            "description": "A number, boolean or string."
          },
          "default": {
            "description": "A number, boolean or string."
          },
          "description": {
            "type": "string"
          }
        },
        "required": [
          "key",
          "value",
          "default",
          "description"
        ]
      },
      "Job": {
        "type": "object",
        "properties": {
          "id": {
            "type": "integer"
          },
          "kind": {
            "type": "string",
            "enum": [
              "import",
              "reprocess"
            ]
          },
          "total": {
            "type": "integer",
            "description": "Photos the job will go through."
          }
        },
        "required": [
          "id",
          "kind",
          "total"
        ]
      },
      "SavedFile": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string",
            "description": "The uploaded file's name."
          },
          "path": {
            "type": "string",
            "description": "Where it is kept: the uploads folder, named by SHA-256."
          },
          "sha256": {
            "type": "string"
          },
          "bytes": {
            "type": "integer"
          }
        },
        "required": [
          "name",
          "path",
          "sha256",
          "bytes"
        ]
      },
      "JobStarted": {
        "type": "object",
        "properties": {
          "job": {
            "$ref": "#/components/schemas/Job"
          },
          "files": {
            "type": "array",
            "nullable": true,
            "items": {
              "$ref": "#/components/schemas/SavedFile"
            }
          }
        },
        "required": [
          "job"
        ]
      }
    }
  },
  "paths": {
    "/api/entries": {
      "get": {
        "summary": "Entries, newest first, a page at a time, with the total.",
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000,
              "default": 100
            },
            "description": "Entries per page."
          },
          {
            "name": "offset",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 0,
              "default": 0
            },
            "description": "Entries skipped."
          },
          {
            "name": "status",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "enum": [
                "ok",
                "failed"
              ]
            },
            "description": "Only entries with this status."
          },
          {
            "name": "stale",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "enum": [
                "1",
                "0",
                "true",
                "false",
                "yes",
                "no"
              ]
            },
            "description": "1: only entries the catalog records as stale (older pipeline, other settings, a retried failure)."
          }
        ],
        "responses": {
          "200": {
            "description": "A page.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EntryPage"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/entries/{id}": {
      "get": {
        "summary": "One entry in full: exactly `catalog show ID --json`.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          }
        ],
        "responses": {
          "200": {
            "description": "The entry.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EntryDetail"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such entry.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/search": {
      "get": {
        "summary": "Stickers by colour: exactly `catalog search --json`.",
        "parameters": [
          {
            "name": "color",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string"
            },
            "description": "#rrggbb, #rgb or a CSS colour name; repeat for several (all must match)."
          },
          {
            "name": "within",
            "in": "query",
            "required": false,
            "schema": {
              "type": "number",
              "exclusiveMinimum": true,
              "minimum": 0,
              "maximum": 100,
              "default": 12
            },
            "description": "Largest Oklab ΔE."
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100000,
              "default": 20
            },
            "description": "Results at most."
          },
          {
            "name": "camera",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Camera make or model contains this (case-insensitive)."
          },
          {
            "name": "taken-after",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UTC)."
          },
          {
            "name": "taken-before",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Same forms."
          }
        ],
        "responses": {
          "200": {
            "description": "Best first.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/SearchHit"
                  }
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/stats": {
      "get": {
        "summary": "`catalog stats --json`.",
        "responses": {
          "200": {
            "description": "Counts and sizes.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Stats"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/stickers/{id}.png": {
      "get": {
        "summary": "The sticker PNG, streamed from the catalog. Send If-None-Match with the ETag to revalidate.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          },
          {
            "name": "If-None-Match",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The PNG.",
            "headers": {
              "ETag": {
                "schema": {
                  "type": "string"
                }
              },
              "Cache-Control": {
                "schema": {
                  "type": "string"
                }
              }
            },
            "content": {
              "image/png": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              }
            }
          },
          "304": {
            "description": "Unchanged since the ETag given."
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such entry, or it has no sticker.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/photos/{id}/preview.jpg": {
      "get": {
        "summary": "The source photo, upright, scaled down to `size` on its long side.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          },
          {
            "name": "size",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 64,
              "maximum": 2048,
              "default": 1024
            },
            "description": "Long side in pixels (never enlarged)."
          }
        ],
        "responses": {
          "200": {
            "description": "The JPEG.",
            "content": {
              "image/jpeg": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such entry (not-found), or its source is gone (source-missing) or cannot be decoded (source-unreadable); the message names the path.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/entries/{id}/cutout/prepare": {
      "post": {
        "summary": "Reads and decodes the entry's photo ahead of its first preview (\"Fix the cut-out\" opened), so that preview runs only the cut-out. Nothing is made or saved.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          }
        ],
        "responses": {
          "204": {
            "description": "The photo is decoded and kept for the next preview."
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such entry.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The entry has no photo to guide (no-photo), its source is gone (source-missing), unreadable (source-unreadable) or holds other bytes now (source-changed), or it no longer decodes.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/entries/{id}/cutout": {
      "post": {
        "summary": "The sticker this guidance would make (a preview for \"Fix the cut-out\"): nothing is saved. The entry's photo stays decoded in memory for the next preview.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CutoutGuidance"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The sticker.",
            "content": {
              "image/png": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              }
            }
          },
          "400": {
            "description": "The body is not guidance, or the guidance does not fit the photo (invalid-guidance: outside the photo, a box of zero size); the message names the value.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such entry.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The entry has no photo to guide (no-photo), its source is gone (source-missing), unreadable (source-unreadable) or holds other bytes now (source-changed), or the cut-out found nothing (no-subject).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is over 1 MB.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed, or the segmentation model is not installed (model-unavailable).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/entries/{id}/guidance": {
      "put": {
        "summary": "Stores this guidance with the entry (replacing what it had) and re-makes its sticker and palette with it, as `catalog recut ID --reset --box ... --include ... --exclude ...` does. Nothing is changed unless the whole re-make succeeds.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CutoutGuidance"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The entry as it now is (as GET /api/entries/{id}).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EntryDetail"
                }
              }
            }
          },
          "400": {
            "description": "The body is not guidance, or the guidance does not fit the photo (invalid-guidance); the message names the value.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such entry.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The entry has no photo to guide (no-photo), its source is gone (source-missing), unreadable (source-unreadable) or holds other bytes now (source-changed), the cut-out found nothing (no-subject), another process changed the entry meanwhile (changed-meanwhile), or the catalog is busy (busy). Nothing was changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is over 1 MB.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed, or the segmentation model is not installed (model-unavailable).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "summary": "Back to the automatic cut-out: clears the entry's guidance and re-makes its sticker, as `catalog recut ID --reset` does.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          }
        ],
        "responses": {
          "200": {
            "description": "The entry as it now is (as GET /api/entries/{id}).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EntryDetail"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such entry.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The entry has no photo to guide (no-photo), its source is gone (source-missing), unreadable (source-unreadable) or holds other bytes now (source-changed), the cut-out found nothing (no-subject), another process changed the entry meanwhile (changed-meanwhile), or the catalog is busy (busy). Nothing was changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed, or the segmentation model is not installed (model-unavailable).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/packs": {
      "get": {
        "summary": "Every pack, by name: `catalog pack list --json`.",
        "responses": {
          "200": {
            "description": "The packs.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/PackSummary"
                  }
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "post": {
        "summary": "Create an empty pack.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "properties": {
                  "name": {
                    "type": "string"
                  },
                  "title": {
                    "type": "string"
                  },
                  "author": {
                    "type": "string"
                  }
                },
                "required": [
                  "name"
                ]
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PackSummary"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A pack with this name exists.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is over 1 MB.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/packs/{name}": {
      "get": {
        "summary": "The pack and its stickers in order: `catalog pack show --json`.",
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          }
        ],
        "responses": {
          "200": {
            "description": "The pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PackDetail"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "patch": {
        "summary": "Rename and/or retitle: each key given is changed.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "properties": {
                  "name": {
                    "type": "string"
                  },
                  "title": {
                    "type": "string"
                  },
                  "author": {
                    "type": "string"
                  }
                },
                "required": []
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The pack as it is now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PackDetail"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The new name is taken.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "summary": "Delete the pack (its stickers stay in the catalog).",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          }
        ],
        "responses": {
          "204": {
            "description": "Deleted."
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/packs/{name}/items": {
      "post": {
        "summary": "Append entries, in the order given (optionally with an emoji).",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "properties": {
                  "ids": {
                    "type": "array",
                    "items": {
                      "type": "integer"
                    }
                  },
                  "emoji": {
                    "type": "string"
                  }
                },
                "required": [
                  "ids"
                ]
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "What was added.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PackAddResult"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack, or unknown ids (unknown-entries).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "An entry has no sticker (not-stickers).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "summary": "Remove entries; the others close up.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "properties": {
                  "ids": {
                    "type": "array",
                    "items": {
                      "type": "integer"
                    }
                  }
                },
                "required": [
                  "ids"
                ]
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The pack as it is now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PackDetail"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "An id is not in the pack (not-in-pack).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/packs/{name}/items/{id}": {
      "patch": {
        "summary": "Set one sticker's emoji and/or move it to a 1-based position.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          },
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "properties": {
                  "emoji": {
                    "type": "string"
                  },
                  "position": {
                    "type": "integer",
                    "minimum": 1
                  }
                },
                "required": []
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The pack as it is now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PackDetail"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The entry is not in the pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "summary": "Remove one sticker from the pack.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          },
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            },
            "description": "The entry's id."
          }
        ],
        "responses": {
          "200": {
            "description": "The pack as it is now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PackDetail"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The entry is not in the pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/packs/{name}/order": {
      "put": {
        "summary": "A new order: every sticker of the pack, once.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "properties": {
                  "ids": {
                    "type": "array",
                    "items": {
                      "type": "integer"
                    }
                  }
                },
                "required": [
                  "ids"
                ]
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The pack as it is now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PackDetail"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "An id is not in the pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/packs/{name}/export": {
      "get": {
        "summary": "The export as a download, with the same bytes as `catalog export`. whatsapp (NAME.wastickers) and zip (NAME.zip) are the file `catalog export` writes; png, telegram, signal, imessage and split packs write folders, which come as one zip (NAME.FORMAT.zip) holding exactly the files and paths `catalog export` writes. dry-run=1 gives the fit report instead.",
        "parameters": [
          {
            "name": "name",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
            },
            "description": "The pack's name."
          },
          {
            "name": "format",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "enum": [
                "telegram",
                "whatsapp",
                "signal",
                "imessage",
                "png",
                "zip"
              ]
            },
            "description": "The platform."
          },
          {
            "name": "dry-run",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "enum": [
                "1",
                "0",
                "true",
                "false",
                "yes",
                "no"
              ]
            },
            "description": "1: the fit report as JSON, nothing exported."
          },
          {
            "name": "imessage-size",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "enum": [
                300,
                408,
                618
              ],
              "default": 408
            },
            "description": "iMessage sticker size."
          }
        ],
        "responses": {
          "200": {
            "description": "The download (Content-Disposition: attachment), or with dry-run=1 the fit report.",
            "content": {
              "application/octet-stream": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "application/zip": {
                "schema": {
                  "type": "string",
                  "format": "binary"
                }
              },
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ExportReport"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "No such pack.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The pack cannot be exported as it is (empty-pack, too-few-stickers, title-too-long, does-not-fit, missing-stickers).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/settings": {
      "get": {
        "summary": "Every setting: `catalog config list --json`.",
        "responses": {
          "200": {
            "description": "The settings.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/Setting"
                  }
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "put": {
        "summary": "Change settings: {\"palette.colors\": 6, ...}. All are checked before any is stored; entries made with other values become stale.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "additionalProperties": {
                  "description": "A number, boolean or string."
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The settings as they are now.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/Setting"
                  }
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "The body is over 1 MB.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/import": {
      "post": {
        "summary": "Upload photos (multipart/form-data, any number of file fields) and import them in the background. Each file is kept in the uploads folder ($XDG_DATA_HOME/sticker-catalog/uploads), named by its SHA-256. Progress: GET /api/events.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "multipart/form-data": {
              "schema": {
                "type": "object",
                "additionalProperties": {
                  "type": "string",
                  "format": "binary"
                }
              }
            }
          }
        },
        "responses": {
          "202": {
            "description": "The job started.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/JobStarted"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A job is running (job-running).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "description": "A file is over --max-upload (default 200 MB).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/reprocess": {
      "post": {
        "summary": "Re-make stale entries ({\"all\": true}: every entry) in the background. Progress: GET /api/events.",
        "security": [
          {
            "catalogToken": []
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "properties": {
                  "all": {
                    "type": "boolean"
                  }
                },
                "required": []
              }
            }
          }
        },
        "responses": {
          "202": {
            "description": "The job started.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/JobStarted"
                }
              }
            }
          },
          "400": {
            "description": "A parameter or body is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "500": {
            "description": "The server failed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "A job is running (job-running).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "The server is stopping (stopping): nothing was changed; try again once it is back.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/events": {
      "get": {
        "summary": "Server-Sent Events. `job` {id, kind, state: started, total} | {id, kind, state: finished, summary} | {id, kind, state: failed, error: {code, message}}; `progress` {id, kind, done, total, event} per photo, where event is the line `catalog import --json` / `catalog reprocess --json` prints; `ping` {} every 15 s.",
        "responses": {
          "200": {
            "description": "The event stream (until the server stops).",
            "content": {
              "text/event-stream": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "403": {
            "description": "Refused: wrong Host, foreign Origin, or (for changes) a missing or wrong X-Catalog-Token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/openapi.yaml": {
      "get": {
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "OpenAPI 3.",
            "content": {
              "application/yaml": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    }
  }
}
"""#
}
