package main

import (
	_ "github.com/blevesearch/bleve/v2"
	_ "github.com/chromedp/chromedp"
	_ "github.com/gin-gonic/gin"
	_ "github.com/kljensen/snowball"
	_ "github.com/rs/zerolog"
	_ "github.com/spf13/cobra"
)

func main() {}
