package browse

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// CategoryNode is a category in the storefront's tree.
type CategoryNode struct {
	ID          uuid.UUID       `json:"id"`
	Name        string          `json:"name"`
	Slug        string          `json:"slug"`
	Description string          `json:"description"`
	ParentID    *uuid.UUID      `json:"parentId"`
	Children    []*CategoryNode `json:"children"`
}

// categoryTree is the answer of GET /categories.
type categoryTree struct {
	Data []*CategoryNode `json:"data"`
}

// Categories returns the whole category tree as {data: [top-level
// categories, each with its children]}, siblings by name. It is one cached
// document: one key whatever the caller, so it always goes to Redis.
func (s *Service) Categories(ctx context.Context) (*Page, error) {
	return s.document(ctx, "categories", true, func() (any, int64, bool, error) {
		var rows []categoryRow
		err := s.db.WithContext(ctx).Raw(`SELECT id, name, slug, description, parent_id FROM categories
			ORDER BY lower(name), name, id`).Scan(&rows).Error
		if err != nil {
			return nil, 0, false, fmt.Errorf("browse.categories: %w", err)
		}
		tree := buildTree(rows)
		return categoryTree{Data: tree}, int64(len(rows)), true, nil
	})
}

// categoryRow is a category as selected.
type categoryRow struct {
	ID          uuid.UUID
	Name        string
	Slug        string
	Description string
	ParentID    *uuid.UUID
}

// buildTree links rows (sorted as siblings are to be) into a tree. A row
// whose parent is missing is a root; rows on a cycle (the catalog refuses
// them) are unreachable from a root and left out rather than looped over.
func buildTree(rows []categoryRow) []*CategoryNode {
	nodes := make([]CategoryNode, len(rows))
	byID := make(map[uuid.UUID]*CategoryNode, len(rows))
	for i, r := range rows {
		nodes[i] = CategoryNode{ID: r.ID, Name: r.Name, Slug: r.Slug, Description: r.Description, ParentID: r.ParentID,
			Children: []*CategoryNode{}}
		byID[r.ID] = &nodes[i]
	}
	roots := []*CategoryNode{}
	for i := range nodes {
		n := &nodes[i]
		if n.ParentID == nil {
			roots = append(roots, n)
			continue
		}
		if parent, ok := byID[*n.ParentID]; ok {
			parent.Children = append(parent.Children, n)
		} else {
			roots = append(roots, n)
		}
	}
	return roots
}
