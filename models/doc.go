// Package models holds the GORM models of the service's tables. The schema
// itself lives in migrations/; these structs mirror it and carry no logic.
//
// Money fields are money.Amount (paise), rates money.Rate (hundredths of a
// percent), timestamps UTC.
package models
