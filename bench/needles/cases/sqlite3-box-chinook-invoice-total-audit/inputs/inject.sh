#!/bin/sh
# Two bad data fixes applied to the shipped database: one invoice line's quantity set to 10,
# and one invoice's stored total typed 8.19 instead of 8.91.
sqlite3 Chinook_Sqlite.sqlite "UPDATE InvoiceLine SET Quantity = 10 WHERE InvoiceLineId = 1140;"
sqlite3 Chinook_Sqlite.sqlite "UPDATE Invoice SET Total = 8.19 WHERE InvoiceId = 333;"
