package overlap
import ("testing")
func TestTmpSpk(t *testing.T){
 talks:=seedTalks(t)
 rep:=Detect(talks,Options{})
 for k,p:=range rep.Pairs{ if k<40 && p.Kind!="topical" {t.Logf("%2d %.3f %s | %s | %s | %v %v", k+1,p.Score,p.Kind,p.TitleA,p.TitleB,p.SharedTerms, p.SharedSpeakers)}}
 n:=map[string]int{}
 for _,c:=range rep.Conflicts{n[c.Kind]++}
 t.Log(n)
 for _,c:=range rep.Conflicts{ if c.Kind=="speaker"{t.Log(c)}}
}
